-- The dashboard's counts in one row, of the riders of the admin's markets $1 (empty: every
-- market): riders by status, open and overdue assignments, completions since the start of
-- this ISO week (UTC), messages to contact by hand (failed or logged). Riders and assignments
-- are scanned once each; completions use course_results_feed and messages messages_unsent.
-- With markets, the other counts keep the riders of those markets (a hashed subplan over one
-- scan of riders); with none, the subplan is never run.
SELECT r.*, a.*, c.*, m.*
FROM (SELECT count(*) FILTER (WHERE status = 'onboarding') AS onboarding,
             count(*) FILTER (WHERE status = 'active') AS active,
             count(*) FILTER (WHERE status = 'suspended') AS suspended,
             count(*) FILTER (WHERE status = 'inactive') AS inactive
      FROM riders
      WHERE cardinality($1::text[]) = 0 OR market = ANY ($1)) r,
     (SELECT count(*) AS open_assignments,
             count(*) FILTER (WHERE deadline < now()) AS overdue_assignments
      FROM assignments
      WHERE completed_at IS NULL
        AND (cardinality($1::text[]) = 0
             OR rider_id IN (SELECT rider_id FROM riders WHERE market = ANY ($1)))) a,
     (SELECT count(*) AS completions_this_week FROM course_results
      WHERE completed_at >= date_trunc('week', now())
        AND (cardinality($1::text[]) = 0
             OR rider_id IN (SELECT rider_id FROM riders WHERE market = ANY ($1)))) c,
     (SELECT count(*) AS messages_to_contact FROM messages
      WHERE status <> 'sent'
        AND (cardinality($1::text[]) = 0
             OR rider_id IN (SELECT rider_id FROM riders WHERE market = ANY ($1)))) m
