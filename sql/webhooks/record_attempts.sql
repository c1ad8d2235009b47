-- Records one attempt of each delivery ($1 endpoints, $5 delivery IDs), its answer's HTTP
-- status in $2, or NULL and why there was no answer in $3 (NULL with a status: an answer's
-- body is not kept), and ends its lease: a 2xx succeeded; a 410 failed and disables its endpoint
-- (the receiver said it is gone); anything else is tried again after the delay in seconds of
-- the retry schedule $4 for its number of attempts, or failed when the schedule has no more.
-- Returns nothing. Served by the primary keys.
WITH attempt AS (
    SELECT * FROM unnest($1::uuid[], $5::bigint[], $2::smallint[], $3::text[])
                  AS a(endpoint_id, delivery_id, answer_status, why)
),
recorded AS (
    UPDATE webhook_deliveries d
    SET attempts = d.attempts + 1,
        last_attempt_at = now(),
        last_status = a.answer_status,
        last_answer = a.why,
        leased_until = NULL,
        status = CASE WHEN a.answer_status BETWEEN 200 AND 299 THEN 'succeeded'
                      WHEN a.answer_status = 410 OR d.attempts >= cardinality($4::float8[])
                      THEN 'failed'
                      ELSE 'pending' END,
        next_attempt_at = CASE
            WHEN a.answer_status BETWEEN 200 AND 299 OR a.answer_status = 410
                 OR d.attempts >= cardinality($4::float8[]) THEN d.next_attempt_at
            ELSE now() + make_interval(secs => ($4::float8[])[d.attempts + 1]) END
    FROM attempt a
    WHERE d.endpoint_id = a.endpoint_id AND d.delivery_id = a.delivery_id
    RETURNING d.endpoint_id, a.answer_status
)
UPDATE webhook_endpoints e
SET enabled = false, disabled_why = 'The receiver answered 410 Gone.'
WHERE e.enabled AND e.endpoint_id IN (SELECT endpoint_id FROM recorded WHERE answer_status = 410)
