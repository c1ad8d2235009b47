-- The messages list (/admin/messages): up to $7 messages before message $1 (NULL: the newest
-- first) in (created_at, message_id) order, newest first, with every filter given ($2 status,
-- $3 kind, $4 from, $5 until: a UTC time range, until exclusive; NULL: any) to riders of the
-- admin's markets $6 (empty: every market). Run planned per call. Served by messages_created (the order, the keyset and the dates), messages_unsent for
-- failed and logged ones; riders by primary key for the name and phone. The body and the call
-- list's mark go with each row: a failed or logged one is the text to pass on by telephone.
-- The body's one-tap link signs the rider in, so the panel shows a placeholder for it.
SELECT m.message_id, m.rider_id, r.name, r.phone, m.kind, m.status, m.error, m.created_at,
       CASE WHEN m.link IS NULL THEN m.body ELSE replace(m.body, m.link, '(one-tap link)') END
           AS body,
       m.called_at, m.called_by
FROM messages m
JOIN riders r ON r.rider_id = m.rider_id
WHERE ($1::bigint IS NULL
       OR (m.created_at, m.message_id) < (SELECT created_at, message_id FROM messages
                                          WHERE message_id = $1))
  AND ($2::text IS NULL OR m.status = $2)
  AND ($3::text IS NULL OR m.kind = $3)
  AND ($4::timestamptz IS NULL OR m.created_at >= $4)
  AND ($5::timestamptz IS NULL OR m.created_at < $5)
  AND (cardinality($6::text[]) = 0 OR r.market = ANY ($6))
ORDER BY m.created_at DESC, m.message_id DESC
LIMIT $7
