-- The first partner name of the staged products (ord, field, message) that names no partner,
-- in record then list order, or no row (unique index on shop_partners.name).
SELECT p.ord, format('partners[%s]', n.position - 1) AS field,
       format('unknown partner %L', n.name) AS message
FROM staged_products p
CROSS JOIN LATERAL json_array_elements_text(p.partners::json) WITH ORDINALITY n (name, position)
WHERE NOT EXISTS (SELECT FROM shop_partners s WHERE s.name = n.name)
ORDER BY p.ord, n.position
LIMIT 1
