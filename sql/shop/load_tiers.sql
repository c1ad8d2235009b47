-- Upserts the staged loyalty tiers (primary key).
INSERT INTO shop_tiers (ridehail_tier, name, discount_percent)
SELECT ridehail_tier, name, discount_percent FROM staged_tiers ORDER BY ord
ON CONFLICT (ridehail_tier) DO UPDATE
SET name = excluded.name, discount_percent = excluded.discount_percent
