-- Which of the order ids $1 do not exist (primary key).
SELECT coalesce(array_agg(n), '{}') FROM unnest($1::bigint[]) n
WHERE NOT EXISTS (SELECT FROM shop_orders o WHERE o.order_id = n)
