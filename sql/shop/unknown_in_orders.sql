-- The first staged order (ord, field, message) naming no user, else no partner, else the first
-- item then exchange product naming no product (record then list order), or no row (primary
-- keys; unique index on shop_partners.name). Absent user and partner name none.
SELECT ord, field, message FROM (
    (SELECT 1 AS rank, ord, 0::bigint AS position, 'user_id' AS field,
            format('unknown user %s', user_id) AS message
     FROM staged_orders o
     WHERE o.user_id IS NOT NULL AND NOT EXISTS (SELECT FROM shop_users u WHERE u.id = o.user_id)
     ORDER BY ord LIMIT 1)
    UNION ALL
    (SELECT 2, ord, 0, 'partner_name', format('unknown partner %L', partner_name)
     FROM staged_orders o
     WHERE o.partner_name IS NOT NULL
       AND NOT EXISTS (SELECT FROM shop_partners p WHERE p.name = o.partner_name)
     ORDER BY ord LIMIT 1)
    UNION ALL
    (SELECT 3, o.ord, i.position, format('items[%s].product_id', i.position - 1),
            format('unknown product %s', i.product_id)
     FROM staged_orders o
     CROSS JOIN LATERAL ROWS FROM (json_to_recordset(o.items::json) AS (product_id bigint))
         WITH ORDINALITY i (product_id, position)
     WHERE NOT EXISTS (SELECT FROM shop_products p WHERE p.id = i.product_id)
     ORDER BY o.ord, i.position LIMIT 1)
    UNION ALL
    (SELECT 4, o.ord, e.position, format('exchange.products[%s].product_id', e.position - 1),
            format('unknown product %s', e.product_id)
     FROM staged_orders o
     CROSS JOIN LATERAL ROWS FROM (json_to_recordset(o.exchange_products::json)
         AS (product_id bigint)) WITH ORDINALITY e (product_id, position)
     WHERE NOT EXISTS (SELECT FROM shop_products p WHERE p.id = e.product_id)
     ORDER BY o.ord, e.position LIMIT 1)
) unknown
ORDER BY rank, ord, position
LIMIT 1
