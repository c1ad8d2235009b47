-- Upserts loyalty tiers (primary key).
INSERT INTO shop_tiers (ridehail_tier, name, discount_percent)
SELECT * FROM unnest($1::text[], $2::text[], $3::numeric[])
ON CONFLICT (ridehail_tier) DO UPDATE
SET name = excluded.name, discount_percent = excluded.discount_percent
