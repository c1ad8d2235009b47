-- Removes what the service keeps only for a while: expired web sessions, failed sign-ins older
-- than the 15-minute throttling window (a subject's own go at its next failure, so a subject
-- that never fails again would keep them), assistant questions older than the hourly limit's
-- hour (likewise removed only at the rider's next question), and rider imports older than the
-- day their rejected rows are kept (the rows cascade; the next import also removes them), and
-- Idempotency-Keys past their 24 hours (a repeat of an expired key runs and claims it anew),
-- and webhook deliveries made more than 30 days ago (whatever their state: the retry schedule
-- ends within 28 hours; only a disabled endpoint's can still be pending), the panel's one-time
-- reveals past their expiry (taken or not: a refresh after that finds nothing), and audit
-- events older than $1 days (AUDIT_RETENTION_DAYS).
-- Returns one row: how many of each were removed. Sequential scans of tables that hold a day
-- at most; rider imports by rider_imports_created, keys by idempotency_keys_expires, reveals
-- by admin_reveals_expires, audit events by audit_events_at (from the oldest end); the
-- deliveries are scanned (once a day).
WITH sessions AS (
    DELETE FROM web_sessions WHERE expires_at <= now() RETURNING 1
), sign_ins AS (
    DELETE FROM sign_in_attempts WHERE at <= now() - interval '15 minutes' RETURNING 1
), questions AS (
    DELETE FROM assistant_questions WHERE asked_at <= now() - interval '1 hour' RETURNING 1
), imports AS (
    DELETE FROM rider_imports WHERE created_at < now() - interval '1 day' RETURNING 1
), idempotency AS (
    DELETE FROM idempotency_keys WHERE expires_at <= now() RETURNING 1
), deliveries AS (
    DELETE FROM webhook_deliveries WHERE created_at < now() - interval '30 days' RETURNING 1
), reveals AS (
    DELETE FROM admin_reveals WHERE expires_at <= now() RETURNING 1
), audit AS (
    DELETE FROM audit_events WHERE at < now() - make_interval(days => $1) RETURNING 1
)
SELECT (SELECT count(*) FROM sessions) AS sessions,
       (SELECT count(*) FROM sign_ins) AS sign_ins,
       (SELECT count(*) FROM questions) AS questions,
       (SELECT count(*) FROM imports) AS imports,
       (SELECT count(*) FROM idempotency) AS idempotency_keys,
       (SELECT count(*) FROM deliveries) AS webhook_deliveries,
       (SELECT count(*) FROM reveals) AS reveals,
       (SELECT count(*) FROM audit) AS audit_events
