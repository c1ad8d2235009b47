-- The riders export, one part: rows $13 + 1 onward, at most $14 ($1–$11: the riders list's
-- filters, see admin_matching_riders; $12: whether any filter is given), in rider ID order.
-- Returns each row as one CSV line with its CRLF (`line`): the columns of docs/csv.md, free text
-- through admin_csv_text (NULL is an empty cell there and in admin_utc_text; the other
-- columns are NOT NULL, so `||` never makes the line NULL). Read through a cursor: riders'
-- primary key in order.
SELECT admin_csv_text(r.rider_id) || ',' || admin_csv_text(r.name) || ',' || r.market || ','
       || admin_csv_text(r.phone) || ',' || admin_csv_text(r.city) || ','
       || admin_csv_text(r.vehicle_type) || ',' || admin_csv_text(r.nationality) || ','
       || r.language || ',' || r.status || ',' || admin_utc_text(r.created_at) || E'\r\n'
       AS line
FROM riders r
WHERE NOT $12::boolean
   OR r.rider_id IN (SELECT m.rider_id
                   FROM admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                                         $11) m)
ORDER BY r.rider_id
OFFSET $13
LIMIT $14
