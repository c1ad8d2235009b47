-- The first staged user kit entry (ord, field, message) naming no user, else the first naming
-- no product, or no row (primary keys).
SELECT ord, field, message FROM (
    (SELECT 1 AS rank, ord, 'user_id' AS field, format('unknown user %s', user_id) AS message
     FROM staged_user_kits k
     WHERE NOT EXISTS (SELECT FROM shop_users u WHERE u.id = k.user_id)
     ORDER BY ord LIMIT 1)
    UNION ALL
    (SELECT 2, ord, 'product_id', format('unknown product %s', product_id)
     FROM staged_user_kits k
     WHERE NOT EXISTS (SELECT FROM shop_products p WHERE p.id = k.product_id)
     ORDER BY ord LIMIT 1)
) unknown
ORDER BY rank, ord
LIMIT 1
