-- The automatic rules: every active 'all_matching' path to every matching rider, every active
-- 'onboarding' path to every matching rider in onboarding status, in both cases only to riders
-- who never had the path, never to inactive riders. $1: the riders to check (the riders just
-- saved, IDs unique), or NULL for every rider (after a load, which may have changed paths).
-- $2: the one path to run (just saved in the admin panel), or NULL for every path.
-- $3: whether to write the assignments' webhook events (`assignment.created`, and
-- `assignment.completed` when completed at once) for the endpoints subscribed; false for
-- load-data, which writes none.
-- The riders, their past assignments and their passed courses come from two branches each,
-- one of which is empty, never from "$1 IS NULL OR rider_id = ANY ($1)": after five calls
-- PostgreSQL may plan a statement once for all parameters, and that plan scanned every rider
-- for each path (17 s, not 20 ms). (paths is small: its "$2 IS NULL OR" costs nothing.)
-- Set-based for every rider: "never had it" is one hash anti-join with the rule paths'
-- assignments (not an index probe a rider), and "passed every course" (the assignment is then
-- completed at once) one count over course_results (a function call a row took 6.6 s of an
-- admin's save of a path matching 250,000 riders).
-- Rows are inserted in (rider_id, path_id) order, the lock order of every assignment insert.
-- Returns the number of assignments created. Served by riders' primary key, assignments_once
-- (its prefix for the riders given; the conflict target: a concurrent call made it),
-- course_results' primary key for the riders given and course_results_course for every rider.
WITH chosen AS (
    SELECT r.* FROM unnest($1::text[]) AS given (rider_id) JOIN riders r USING (rider_id)
    UNION ALL
    SELECT * FROM riders WHERE $1::text[] IS NULL
),
rule_paths AS (
    SELECT p.*, (SELECT count(*) FROM path_courses pc WHERE pc.path_id = p.path_id) AS courses
    FROM paths p
    WHERE p.active
      AND p.rule IN ('all_matching', 'onboarding')
      AND ($2::uuid IS NULL OR p.path_id = $2::uuid)
),
had AS (
    SELECT a.rider_id, a.path_id
    FROM unnest($1::text[]) AS given (rider_id) JOIN assignments a USING (rider_id)
    WHERE a.path_id IN (SELECT path_id FROM rule_paths)
    UNION ALL
    SELECT a.rider_id, a.path_id FROM assignments a
    WHERE $1::text[] IS NULL AND a.path_id IN (SELECT path_id FROM rule_paths)
),
matched AS (
    SELECT r.rider_id, p.path_id, p.rule, p.days_to_complete, p.courses
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
    SELECT cr.rider_id, p.path_id
    FROM unnest($1::text[]) AS given (rider_id)
    JOIN course_results cr ON cr.rider_id = given.rider_id AND cr.completed_at IS NOT NULL
    JOIN path_courses pc ON pc.course_id = cr.course_id
    JOIN rule_paths p ON p.path_id = pc.path_id
    GROUP BY cr.rider_id, p.path_id, p.courses
    HAVING count(*) = p.courses
    UNION ALL
    SELECT cr.rider_id, p.path_id
    FROM rule_paths p
    JOIN path_courses pc ON pc.path_id = p.path_id
    JOIN course_results cr ON cr.course_id = pc.course_id AND cr.completed_at IS NOT NULL
    WHERE $1::text[] IS NULL
    GROUP BY cr.rider_id, p.path_id, p.courses
    HAVING count(*) = p.courses
),
created AS (
    INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at)
    SELECT m.rider_id, m.path_id,
           CASE m.rule WHEN 'onboarding' THEN 'onboarding' ELSE 'rule' END,
           now() + make_interval(days => m.days_to_complete),
           CASE WHEN m.courses = 0 OR passed.rider_id IS NOT NULL THEN now() END
    FROM matched m
    LEFT JOIN passed ON passed.rider_id = m.rider_id AND passed.path_id = m.path_id
    ORDER BY m.rider_id, m.path_id
    ON CONFLICT (rider_id, path_id, completed_at) DO NOTHING
    RETURNING rider_id, path_id, deadline, completed_at, why
),
events AS (
    INSERT INTO webhook_deliveries (endpoint_id, event_type, rider_id, path_id, deadline,
                                    completed_at, why)
    SELECT s.endpoint_id, s.event_type, c.rider_id, c.path_id, c.deadline, c.completed_at, c.why
    FROM created c
    JOIN webhook_subscriptions s
      ON s.event_type = 'assignment.created'
      OR (s.event_type = 'assignment.completed' AND c.completed_at IS NOT NULL)
    WHERE $3::boolean
)
SELECT count(*) FROM created
