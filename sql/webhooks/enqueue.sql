-- Writes events of type $1, one a data object of the JSON array $2, for every endpoint
-- subscribed to the type (none stored when nobody is): for the events made in Python (a
-- completion's feed record with its cursor, a test event to endpoint $3 alone). Run in the
-- transaction of the change that made them; one jsonb value, not a jsonb[] parameter, which
-- asyncpg would look up on each new connection (a rider's pass writes one). Returns nothing.
-- webhook_endpoints is small and scanned.
INSERT INTO webhook_deliveries (endpoint_id, event_type, data)
SELECT e.endpoint_id, $1, d.data
FROM jsonb_array_elements($2::jsonb) AS d(data)
CROSS JOIN webhook_endpoints e
WHERE CASE WHEN $3::uuid IS NULL
           THEN e.enabled AND $1 = ANY (e.events)
           ELSE e.endpoint_id = $3::uuid END
