-- Rider $1's profile, or no row for an unknown rider or one outside the admin's markets $2
-- (empty: every market). Served by riders' primary key.
SELECT rider_id, name, market, phone, city, vehicle_type, nationality, language, status,
       pin_hash IS NOT NULL AS has_pin, created_at, updated_at
FROM riders
WHERE rider_id = $1 AND (cardinality($2::text[]) = 0 OR market = ANY ($2))
