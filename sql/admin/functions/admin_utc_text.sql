-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- A time as the exports print it: ISO 8601 in UTC at millisecond precision, as Family C's API
-- (YYYY-MM-DDTHH:MM:SS.sssZ); NULL is an empty cell. The Z is appended rather than quoted in
-- the pattern: measured, a quoted literal at the end of the pattern cost a third more a call.
CREATE OR REPLACE FUNCTION admin_utc_text(t timestamptz) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') || 'Z', '')
$$;
