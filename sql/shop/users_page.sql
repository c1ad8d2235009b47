-- The users $2 (bigint[], one page of sql/shop/users_page_keys.sql) as a JSON array in id
-- order, each with kit, existing_kit and available_kit ($1 per-user kits, else partner kits).
-- Fetched by shop_users_pkey; shop_kit_entries is inlined (its argument is a plain
-- parameter) and reads the page's entries by primary keys. Run with a custom plan per call,
-- so that the function's `user_ids IS NULL` branch and the other kit mode drop out.
WITH kits AS (
    SELECT e.user_id,
           json_agg(e.entry ORDER BY e.product_id) AS kit,
           coalesce(json_agg(e.entry_with_channel ORDER BY e.product_id) FILTER (WHERE e.complete),
                    '[]'::json) AS existing_kit,
           coalesce(json_agg(e.entry ORDER BY e.product_id) FILTER (WHERE NOT e.complete),
                    '[]'::json) AS available_kit
    FROM shop_kit_entries($1, $2) e
    GROUP BY e.user_id
)
SELECT coalesce(json_agg(json_build_object(
           'id', u.id,
           'ridehail_id', u.ridehail_id,
           'agency_id', u.agency_id,
           'email', u.email,
           'partner_name', pa.name,
           'kit', coalesce(k.kit, '[]'::json),
           'existing_kit', coalesce(k.existing_kit, '[]'::json),
           'available_kit', coalesce(k.available_kit, '[]'::json)) ORDER BY u.id),
       '[]'::json)
FROM shop_users u
LEFT JOIN shop_partners pa ON pa.id = u.partner_id
LEFT JOIN kits k ON k.user_id = u.id
WHERE u.id = ANY ($2::bigint[])
