-- The audit log's page (/admin/audit): up to $8 events before the keyset ($1 at, $2 event_id:
-- the last event shown; NULL: the newest first) in (at, event_id) order, newest first, with
-- every filter given ($3 actor, $4 action, $5 target, each exact; $6 from, $7 until: a UTC
-- time range, until exclusive; NULL: any). Run planned per call, so the filters not given drop
-- out and the keyset's values are known: served by audit_events_actor or audit_events_action
-- when that filter is given, else audit_events_at, each read in order from the keyset down;
-- a target is checked on the rows so read (no index of its own: a target alone may scan).
SELECT event_id, at, actor, address, action, target, summary
FROM audit_events
WHERE ($1::timestamptz IS NULL OR (at, event_id) < ($1, $2::bigint))
  AND ($3::text IS NULL OR actor = $3)
  AND ($4::text IS NULL OR action = $4)
  AND ($5::text IS NULL OR target = $5)
  AND ($6::timestamptz IS NULL OR at >= $6)
  AND ($7::timestamptz IS NULL OR at < $7)
ORDER BY at DESC, event_id DESC
LIMIT $8
