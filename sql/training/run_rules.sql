-- The automatic rules: every active 'all_matching' path to every matching rider, every active
-- 'onboarding' path to every matching rider in onboarding status, in both cases only to riders
-- who never had the path, never to inactive riders. $1: the riders to check (the riders just
-- saved, IDs unique), or NULL for every rider (after a load, which may have changed paths).
-- The riders come from two branches, each of which is empty unless its case applies, never
-- from "$1 IS NULL OR rider_id = ANY ($1)": after five calls PostgreSQL may plan a statement
-- once for all parameters, and that plan scanned every rider for each path (17 s, not 20 ms).
-- Rows are inserted in (rider_id, path_id) order, the lock order of every assignment insert.
-- Returns the number of assignments created. Served by riders' primary key and
-- assignments_once (its prefix: never had it; the conflict target: a concurrent call made it).
WITH chosen AS (
    SELECT * FROM riders WHERE rider_id = ANY ($1::text[])
    UNION ALL
    SELECT * FROM riders WHERE $1::text[] IS NULL
),
created AS (
    INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at)
    SELECT r.rider_id, p.path_id,
           CASE p.rule WHEN 'onboarding' THEN 'onboarding' ELSE 'rule' END,
           now() + make_interval(days => p.days_to_complete),
           CASE WHEN training_path_passed(r.rider_id, p.path_id) THEN now() END
    FROM chosen r
    JOIN paths p ON p.rule = 'all_matching' OR r.status = 'onboarding'
    WHERE p.active
      AND p.rule IN ('all_matching', 'onboarding')
      AND r.status <> 'inactive'
      AND (p.markets = '{}' OR r.market = ANY (p.markets))
      AND (p.vehicle_types = '{}' OR r.vehicle_type = ANY (p.vehicle_types))
      AND (p.nationalities = '{}' OR r.nationality = ANY (p.nationalities))
      AND NOT EXISTS (SELECT FROM assignments a
                      WHERE a.rider_id = r.rider_id AND a.path_id = p.path_id)
    ORDER BY r.rider_id, p.path_id
    ON CONFLICT (rider_id, path_id, completed_at) DO NOTHING
    RETURNING 1
)
SELECT count(*) FROM created
