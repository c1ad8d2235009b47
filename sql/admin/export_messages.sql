-- The messages export, one part: rows $6 + 1 onward, at most $7, of the messages with status
-- $1 and kind $2, created from $3 to before $4 (each NULL: any), to riders of the admin's
-- markets $5 (empty: every market; a scan of riders), oldest first. Returns each
-- row as one CSV line with its CRLF (`line`): the columns of docs/csv.md, free text through
-- admin_csv_text (NULL is an empty cell there and in admin_utc_text; the other columns are
-- NOT NULL). Read through a cursor: messages' primary key in order.
SELECT admin_csv_text(m.rider_id) || ',' || m.kind || ',' || m.status || ','
       || admin_utc_text(m.created_at) || ',' || admin_csv_text(m.error) || E'\r\n' AS line
FROM messages m
WHERE ($1::text IS NULL OR m.status = $1)
  AND ($2::text IS NULL OR m.kind = $2)
  AND ($3::timestamptz IS NULL OR m.created_at >= $3)
  AND ($4::timestamptz IS NULL OR m.created_at < $4)
  AND (cardinality($5::text[]) = 0
       OR m.rider_id IN (SELECT rider_id FROM riders WHERE market = ANY ($5)))
ORDER BY m.message_id
OFFSET $6
LIMIT $7
