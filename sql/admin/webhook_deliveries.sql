-- Endpoint $1's latest $2 deliveries, newest first, for its page. Returns delivery_id,
-- event_type, created_at, status, attempts, last_status (the last answer's HTTP status),
-- last_answer (NULL with a status, else why there was no answer), last_attempt_at,
-- next_attempt_at (NULL unless pending). Served by webhook_deliveries' primary key (the
-- endpoint's range, read backwards).
SELECT delivery_id, event_type, created_at, status, attempts, last_status, last_answer,
       last_attempt_at, CASE WHEN status = 'pending' THEN next_attempt_at END AS next_attempt_at
FROM webhook_deliveries
WHERE endpoint_id = $1
ORDER BY delivery_id DESC
LIMIT $2
