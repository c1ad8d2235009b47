-- Which of the partner names $1 do not exist (unique index on shop_partners.name).
SELECT coalesce(array_agg(n), '{}') FROM unnest($1::text[]) n
WHERE NOT EXISTS (SELECT FROM shop_partners p WHERE p.name = n)
