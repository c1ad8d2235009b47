-- The first staged partner kit entry (ord, field, message) naming no partner, else the first
-- naming no product, or no row (unique index on shop_partners.name, primary key of products).
SELECT ord, field, message FROM (
    SELECT 1 AS rank, ord, 'partner_name' AS field,
           format('unknown partner %L', partner_name) AS message
    FROM staged_partner_kits k
    WHERE NOT EXISTS (SELECT FROM shop_partners p WHERE p.name = k.partner_name)
    UNION ALL
    SELECT 2, ord, 'product_id', format('unknown product %s', product_id)
    FROM staged_partner_kits k
    WHERE NOT EXISTS (SELECT FROM shop_products p WHERE p.id = k.product_id)
) unknown
ORDER BY rank, ord
LIMIT 1
