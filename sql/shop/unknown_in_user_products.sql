-- The first staged unit (ord, field, message) naming no user, else no product, else no order
-- (an absent order names none), or no row (primary keys).
SELECT ord, field, message FROM (
    (SELECT 1 AS rank, ord, 'user_id' AS field, format('unknown user %s', user_id) AS message
     FROM staged_user_products r
     WHERE NOT EXISTS (SELECT FROM shop_users u WHERE u.id = r.user_id)
     ORDER BY ord LIMIT 1)
    UNION ALL
    (SELECT 2, ord, 'product_id', format('unknown product %s', product_id)
     FROM staged_user_products r
     WHERE NOT EXISTS (SELECT FROM shop_products p WHERE p.id = r.product_id)
     ORDER BY ord LIMIT 1)
    UNION ALL
    (SELECT 3, ord, 'order_id', format('unknown order %s', order_id)
     FROM staged_user_products r
     WHERE r.order_id IS NOT NULL
       AND NOT EXISTS (SELECT FROM shop_orders o WHERE o.order_id = r.order_id)
     ORDER BY ord LIMIT 1)
) unknown
ORDER BY rank, ord
LIMIT 1
