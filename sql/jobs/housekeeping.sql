-- Removes what the service keeps only for a while: expired web sessions, failed sign-ins older
-- than the 15-minute throttling window (a subject's own go at its next failure, so a subject
-- that never fails again would keep them), assistant questions older than the hourly limit's
-- hour (likewise removed only at the rider's next question), and rider imports older than the
-- day their rejected rows are kept (the rows cascade; the next import also removes them).
-- Returns one row: how many of each were removed. Sequential scans of tables that hold a day
-- at most; rider imports by rider_imports_created.
WITH sessions AS (
    DELETE FROM web_sessions WHERE expires_at <= now() RETURNING 1
), sign_ins AS (
    DELETE FROM sign_in_attempts WHERE at <= now() - interval '15 minutes' RETURNING 1
), questions AS (
    DELETE FROM assistant_questions WHERE asked_at <= now() - interval '1 hour' RETURNING 1
), imports AS (
    DELETE FROM rider_imports WHERE created_at < now() - interval '1 day' RETURNING 1
)
SELECT (SELECT count(*) FROM sessions) AS sessions,
       (SELECT count(*) FROM sign_ins) AS sign_ins,
       (SELECT count(*) FROM questions) AS questions,
       (SELECT count(*) FROM imports) AS imports
