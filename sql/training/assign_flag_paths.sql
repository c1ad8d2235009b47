-- Assigns rider $1 every active 'flag' path for flag type $2 whose filters the rider matches,
-- unless the rider is inactive or has the path open now (the conflict target skips it), in
-- path_id order, and writes the webhook event of flag $3 (`flag.created`, with the number of
-- assignments) for the endpoints subscribed; the assignments' own events are written by the
-- trigger on assignments (webhook_assignment_events).
-- Returns the path_id of each assignment created. Served by riders' primary
-- key and assignments_once (the conflict target: an open row is one NULL completed_at per
-- rider and path); paths are few and scanned.
WITH created AS (
    INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at)
    SELECT r.rider_id, p.path_id, 'flag',
           now() + make_interval(days => p.days_to_complete),
           CASE WHEN EXISTS (SELECT FROM training_path_passers(p.path_id, ARRAY[r.rider_id]))
                THEN now() END
    FROM riders r
    JOIN paths p ON p.active AND p.rule = 'flag' AND $2 = ANY (p.flag_types)
    WHERE r.rider_id = $1
      AND r.status <> 'inactive'
      AND (p.markets = '{}' OR r.market = ANY (p.markets))
      AND (p.vehicle_types = '{}' OR r.vehicle_type = ANY (p.vehicle_types))
      AND (p.nationalities = '{}' OR r.nationality = ANY (p.nationalities))
    ORDER BY p.path_id
    ON CONFLICT (rider_id, path_id, completed_at) DO NOTHING
    RETURNING path_id
),
flag_event AS (
    INSERT INTO webhook_deliveries (endpoint_id, event_type, data)
    SELECT s.endpoint_id, s.event_type,
           jsonb_build_object('flagId', $3::uuid, 'riderId', $1::text, 'reason', $2::text,
                              'enrollmentsCreated', (SELECT count(*) FROM created))
    FROM webhook_subscriptions s
    WHERE s.event_type = 'flag.created'
)
SELECT path_id FROM created ORDER BY path_id
