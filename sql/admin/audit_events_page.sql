-- The audit log's page (/admin/audit): up to $7 events before event $1 (NULL: the newest
-- first) in (at, event_id) order, newest first, with every filter given ($2 actor, $3 action,
-- $4 target, each exact; $5 from, $6 until: a UTC time range, until exclusive; NULL: any).
-- Run planned per call, so the filters not given drop out: served by audit_events_actor or
-- audit_events_action when that filter is given, else audit_events_at, each read in order
-- from the keyset down (a target alone is checked on the rows so read).
SELECT event_id, at, actor, address, action, target, summary
FROM audit_events
WHERE ($1::bigint IS NULL
       OR (at, event_id) < (SELECT at, event_id FROM audit_events WHERE event_id = $1))
  AND ($2::text IS NULL OR actor = $2)
  AND ($3::text IS NULL OR action = $3)
  AND ($4::text IS NULL OR target = $4)
  AND ($5::timestamptz IS NULL OR at >= $5)
  AND ($6::timestamptz IS NULL OR at < $6)
ORDER BY at DESC, event_id DESC
LIMIT $7
