-- The dashboard's counts in one row: riders by status, open and overdue assignments,
-- completions since the start of this ISO week (UTC), messages to contact by hand (failed or
-- logged). Riders and assignments are scanned once each; completions use course_results_feed
-- and messages messages_unsent.
SELECT r.*, a.*, c.*, m.*
FROM (SELECT count(*) FILTER (WHERE status = 'onboarding') AS onboarding,
             count(*) FILTER (WHERE status = 'active') AS active,
             count(*) FILTER (WHERE status = 'suspended') AS suspended,
             count(*) FILTER (WHERE status = 'inactive') AS inactive
      FROM riders) r,
     (SELECT count(*) AS open_assignments,
             count(*) FILTER (WHERE deadline < now()) AS overdue_assignments
      FROM assignments WHERE completed_at IS NULL) a,
     (SELECT count(*) AS completions_this_week FROM course_results
      WHERE completed_at >= date_trunc('week', now())) c,
     (SELECT count(*) AS messages_to_contact FROM messages WHERE status <> 'sent') m
