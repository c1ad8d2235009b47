-- The kit of user $2 (own kit when $1, else the partner's) as a JSON array of entries with
-- channel, ordered by product id; through shop_kit_entries (primary keys).
SELECT coalesce(json_agg(entry_with_channel ORDER BY product_id), '[]'::json)
FROM shop_kit_entries($1, ARRAY[$2::bigint])
