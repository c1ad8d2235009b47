-- Rider $1's $2 newest messages: kind, status, body, error, created_at. Served by
-- messages_rider (read backwards).
SELECT kind, status, body, error, created_at
FROM messages WHERE rider_id = $1
ORDER BY created_at DESC
LIMIT $2
