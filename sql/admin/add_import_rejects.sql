-- Keeps a batch's rejected rows of import $1: parallel arrays of line numbers, original cells
-- as CSV text and errors. Returns nothing. Served by rider_import_rejects' primary key.
INSERT INTO rider_import_rejects (import_id, line, cells, error)
SELECT $1, v.line, v.cells, v.error
FROM unnest($2::integer[], $3::text[], $4::text[]) AS v(line, cells, error)
