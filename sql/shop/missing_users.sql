-- Which of the user ids $1 do not exist (primary key).
SELECT coalesce(array_agg(n), '{}') FROM unnest($1::bigint[]) n
WHERE NOT EXISTS (SELECT FROM shop_users u WHERE u.id = n)
