-- The number of messages the messages export holds ($1–$4 as in export_messages.sql). A
-- scan of messages (the filters are optional and few).
SELECT count(*)
FROM messages m
WHERE ($1::text IS NULL OR m.status = $1)
  AND ($2::text IS NULL OR m.kind = $2)
  AND ($3::timestamptz IS NULL OR m.created_at >= $3)
  AND ($4::timestamptz IS NULL OR m.created_at < $4)
