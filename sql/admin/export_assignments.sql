-- The assignments export, one part: rows $13 + 1 onward, at most $14, of the assignments of
-- the riders that match the riders list's filters ($1–$11, see admin_matching_riders; $12:
-- whether any filter is given), by rider, path and completion. Returns each row as one CSV
-- line with its CRLF (`line`): the columns of docs/csv.md, free text through admin_csv_text
-- (NULL is an empty cell there and in admin_utc_text; the other columns are NOT NULL). Read
-- through a cursor: assignments_once in order, the path name from paths' primary key.
SELECT admin_csv_text(a.rider_id) || ',' || a.path_id::text || ',' || admin_csv_text(p.name)
       || ',' || a.why || ',' || admin_utc_text(a.assigned_at) || ','
       || admin_utc_text(a.deadline) || ',' || admin_utc_text(a.completed_at) || E'\r\n'
       AS line
FROM assignments a
LEFT JOIN paths p ON p.path_id = a.path_id
WHERE NOT $12::boolean
   OR a.rider_id IN (SELECT m.rider_id
                   FROM admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                                         $11) m)
ORDER BY a.rider_id, a.path_id, a.completed_at
OFFSET $13
LIMIT $14
