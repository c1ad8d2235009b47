-- Claims the due deliveries of every enabled endpoint, oldest due first, leaving at most $1
-- in flight per endpoint (the claims of every process whose lease still runs count), and
-- leases them for $2 seconds: a process that dies with claims leaves them to be claimed again
-- after that. Run after lock_claims.sql, in its transaction; rows another transaction holds
-- are skipped (FOR UPDATE SKIP LOCKED). Returns each delivery, its data object built from
-- what is stored (webhook_event_data), with its endpoint's URL and secret. Served by
-- webhook_deliveries_leased (the count) and webhook_deliveries_due (what is due, per endpoint);
-- endpoints are few and scanned. The rows claimed are then updated by their row address
-- (ctid: each is locked, so it cannot move before the update), never by a join on the key: a
-- plan kept from when the table was nearly empty joined the key by reading all of its index,
-- every turn (after 750,000 events of a dead endpoint were deleted, 13 ms a turn and 10,000
-- deliveries in 30 s instead of 5).
WITH free AS (
    SELECT e.endpoint_id, e.url, e.secret,
           $1 - (SELECT count(*) FROM webhook_deliveries l
                 WHERE l.endpoint_id = e.endpoint_id
                   AND l.leased_until IS NOT NULL AND l.leased_until > now()) AS slots
    FROM webhook_endpoints e
    WHERE e.enabled
),
due AS (
    SELECT d.row_address, f.url, f.secret
    FROM free f
    CROSS JOIN LATERAL (
        SELECT d.ctid AS row_address
        FROM webhook_deliveries d
        WHERE d.endpoint_id = f.endpoint_id
          AND d.status = 'pending'
          AND d.next_attempt_at <= now()
          AND (d.leased_until IS NULL OR d.leased_until <= now())
        ORDER BY d.next_attempt_at
        LIMIT greatest(f.slots, 0)
        FOR UPDATE SKIP LOCKED
    ) d
)
UPDATE webhook_deliveries d
SET leased_until = now() + make_interval(secs => $2)
FROM due
WHERE d.ctid = due.row_address
RETURNING d.endpoint_id, d.delivery_id, d.event_type,
          webhook_event_data(d.event_type, d.data, d.rider_id, d.path_id, d.deadline,
                             d.completed_at, d.why) AS data,
          d.created_at, due.url, due.secret
