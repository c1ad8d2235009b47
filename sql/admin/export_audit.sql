-- The audit log's CSV, one part: rows $6 + 1 onward, at most $7, of the events with actor $1,
-- action $2, target $3 (each exact), at from $4 to before $5 (each NULL: any), newest first as
-- the page lists them. Returns each row as one CSV line with its CRLF (`line`): at, actor,
-- address, action, target, summary; the text a person typed (an email, a target, a summary
-- holding names and filters) through admin_csv_text, so a formula stays text in a
-- spreadsheet. Read through a cursor: audit_events_at (or the actor's or action's index) in
-- order.
SELECT admin_utc_text(at) || ',' || admin_csv_text(actor) || ',' || admin_csv_text(address)
       || ',' || action || ',' || admin_csv_text(target) || ',' || admin_csv_text(summary)
       || E'\r\n' AS line
FROM audit_events
WHERE ($1::text IS NULL OR actor = $1)
  AND ($2::text IS NULL OR action = $2)
  AND ($3::text IS NULL OR target = $3)
  AND ($4::timestamptz IS NULL OR at >= $4)
  AND ($5::timestamptz IS NULL OR at < $5)
ORDER BY at DESC, event_id DESC
OFFSET $6
LIMIT $7
