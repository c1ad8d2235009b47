-- The number of audit events the audit log's CSV holds: actor $1, action $2, target $3 (each
-- exact), at from $4 to before $5 (each NULL: any). Served by audit_events_actor or
-- audit_events_action when given, else audit_events_at (run planned per call).
SELECT count(*)
FROM audit_events
WHERE ($1::text IS NULL OR actor = $1)
  AND ($2::text IS NULL OR action = $2)
  AND ($3::text IS NULL OR target = $3)
  AND ($4::timestamptz IS NULL OR at >= $4)
  AND ($5::timestamptz IS NULL OR at < $5)
