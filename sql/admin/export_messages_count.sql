-- The number of messages the messages export holds ($1–$5 as in export_messages.sql). A
-- scan of messages (the filters are optional and few).
SELECT count(*)
FROM messages m
WHERE ($1::text IS NULL OR m.status = $1)
  AND ($2::text IS NULL OR m.kind = $2)
  AND ($3::timestamptz IS NULL OR m.created_at >= $3)
  AND ($4::timestamptz IS NULL OR m.created_at < $4)
  AND (cardinality($5::text[]) = 0
       OR m.rider_id IN (SELECT rider_id FROM riders WHERE market = ANY ($5)))
