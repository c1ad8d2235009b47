-- The rejected rows of import $1 in file order: line, cells (CSV text) and error. Read
-- through a cursor; served by rider_import_rejects' primary key.
SELECT line, cells, error
FROM rider_import_rejects
WHERE import_id = $1
ORDER BY line
