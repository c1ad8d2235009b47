-- The header (CSV text) of import $1 if admin $2 made it within the last day, else no row.
-- Served by rider_imports' primary key.
SELECT header
FROM rider_imports
WHERE import_id = $1 AND admin_id = $2 AND created_at >= now() - interval '1 day'
