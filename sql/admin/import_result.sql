-- The result of import $1 (the file's header as CSV text, its counts, unmatched vehicle types
-- and failure) if admin $2 made it within the last day, else no row. Served by rider_imports'
-- primary key.
SELECT import_id, header, inserted, updated, enrollments_created, rejected, unmatched_vehicles,
       failure
FROM rider_imports
WHERE import_id = $1 AND admin_id = $2 AND created_at >= now() - interval '1 day'
