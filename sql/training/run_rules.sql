-- The automatic rules: every active 'all_matching' path to every matching rider, every active
-- 'onboarding' path to every matching rider in onboarding status, in both cases only to riders
-- who never had the path, never to inactive riders. $1: the riders to check (the riders just
-- saved, IDs unique), or NULL for every rider (after a load, which may have changed paths).
-- $2: the one path to run (just saved in the admin panel), or NULL for every path.
-- The assignments' webhook events are written by the trigger on assignments
-- (webhook_assignment_events; load-data turns them off for its transaction).
-- The riders and their past assignments come from two branches each (and so do the passers),
-- one of which is empty, never from "$1 IS NULL OR rider_id = ANY ($1)": after five calls
-- PostgreSQL may plan a statement once for all parameters, and that plan scanned every rider
-- for each path (17 s, not 20 ms). (paths is small: its "$2 IS NULL OR" costs nothing.)
-- The riders given are read with "rider_id = ANY ($1)", one index scan of the key: joined to
-- unnest($1), 5,000 IDs were planned as a hash join over every rider (0.7 s of a 5,000-rider
-- POST /riders, not 0.05 s). Their past assignments are looked up a rider at a time, in
-- assignments_once: joined to unnest($1) they were a hash of every assignment (17 of 45 ms
-- for 5,000 new riders beside 195,000, growing with the table), and read with
-- "rider_id = ANY ($1)" the planner weighed each of 5,000 IDs against the column's most
-- common values (planning 3 -> 12 ms). OFFSET 0 keeps the lateral subquery a per-rider look-up
-- (pulled up, it is the join again).
-- Set-based for every rider: "never had it" is one hash anti-join of the matches with those
-- past assignments (not an index probe a match), and "passed the path" (the assignment is then
-- completed at once) training_path_passers a rule path, one count over its results (a
-- function call a row took 6.6 s of an admin's save of a path matching 250,000 riders),
-- only for the paths some rider gets now (none for riders who had them all: an update).
-- Rows are inserted in (rider_id, path_id) order, the lock order of every assignment insert.
-- Returns the number of assignments created. Served by riders' primary key, assignments_once
-- (its prefix for the riders given; the conflict target: a concurrent call made it),
-- and training_path_passers' indexes.
WITH chosen AS (
    SELECT * FROM riders WHERE rider_id = ANY ($1::text[])
    UNION ALL
    SELECT * FROM riders WHERE $1::text[] IS NULL
),
rule_paths AS (
    SELECT p.*
    FROM paths p
    WHERE p.active
      AND p.rule IN ('all_matching', 'onboarding')
      AND ($2::uuid IS NULL OR p.path_id = $2::uuid)
),
had AS (
    SELECT a.rider_id, a.path_id
    FROM unnest($1::text[]) AS given (rider_id)
    CROSS JOIN LATERAL (SELECT a.rider_id, a.path_id
                        FROM assignments a
                        WHERE a.rider_id = given.rider_id
                          AND a.path_id IN (SELECT path_id FROM rule_paths)
                        OFFSET 0) a
    UNION ALL
    SELECT a.rider_id, a.path_id FROM assignments a
    WHERE $1::text[] IS NULL AND a.path_id IN (SELECT path_id FROM rule_paths)
),
matched AS (
    SELECT r.rider_id, p.path_id, p.rule, p.days_to_complete
    FROM chosen r
    JOIN rule_paths p ON p.rule = 'all_matching' OR r.status = 'onboarding'
    WHERE r.status <> 'inactive'
      AND (p.markets = '{}' OR r.market = ANY (p.markets))
      AND (p.vehicle_types = '{}' OR r.vehicle_type = ANY (p.vehicle_types))
      AND (p.nationalities = '{}' OR r.nationality = ANY (p.nationalities))
      AND NOT EXISTS (SELECT FROM had
                      WHERE had.rider_id = r.rider_id AND had.path_id = p.path_id)
),
passed AS (
    SELECT x.rider_id, p.path_id
    FROM rule_paths p
    CROSS JOIN LATERAL training_path_passers(p.path_id, $1) x
    WHERE EXISTS (SELECT FROM matched m WHERE m.path_id = p.path_id)
),
created AS (
    INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at)
    SELECT m.rider_id, m.path_id,
           CASE m.rule WHEN 'onboarding' THEN 'onboarding' ELSE 'rule' END,
           now() + make_interval(days => m.days_to_complete),
           CASE WHEN passed.rider_id IS NOT NULL THEN now() END
    FROM matched m
    LEFT JOIN passed ON passed.rider_id = m.rider_id AND passed.path_id = m.path_id
    ORDER BY m.rider_id, m.path_id
    ON CONFLICT (rider_id, path_id, completed_at) DO NOTHING
    RETURNING rider_id
)
SELECT count(*) FROM created
