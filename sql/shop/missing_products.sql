-- Which of the product ids $1 do not exist (primary key).
SELECT coalesce(array_agg(n), '{}') FROM unnest($1::bigint[]) n
WHERE NOT EXISTS (SELECT FROM shop_products p WHERE p.id = n)
