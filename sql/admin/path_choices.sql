-- Every learning path for a form's choice: path_id, name, active; by name. Paths are few:
-- scanned.
SELECT path_id, name, active FROM paths ORDER BY name, path_id
