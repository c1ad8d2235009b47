-- Records a new rider import ($1 import_id, $2 admin_id, $3 the file's header as CSV text)
-- and removes the imports older than a day with their rejected rows (served by
-- rider_imports_created). Returns nothing.
WITH forgotten AS (
    DELETE FROM rider_imports WHERE created_at < now() - interval '1 day'
)
INSERT INTO rider_imports (import_id, admin_id, header) VALUES ($1, $2, $3)
