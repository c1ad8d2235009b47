-- The first $2 rejected rows of import $1 in file order: line and error. Served by
-- rider_import_rejects' primary key.
SELECT line, error
FROM rider_import_rejects
WHERE import_id = $1
ORDER BY line
LIMIT $2
