-- POST /api/v1/assignments and the panel's assign forms: assigns path $1 (why $6: 'api' or
-- 'admin'; deadline now + its days) to every rider that is in $2 (when not NULL) and matches
-- every filter given ($3 markets, $4 vehicle types, $5 statuses, $7 cities in lower case;
-- NULL: not given; the riders filter of training_rider_matches),
-- is not inactive and has not the path open (the conflict target skips it); the path's own
-- rule, filters and Active are ignored. A rider who already passed the path
-- (training_path_passers: every rider who did, one count over the path's results, whatever
-- $2 holds: 250,000 IDs would be 250,000 probes a course) gets a completed assignment. Inserted in rider_id order, the lock order of every assignment
-- insert. With $8 true (the panel's preview) nothing is inserted and `would_create` counts the
-- riders who would get the path (those without it open). The assignments' webhook events
-- are written by the trigger on assignments (webhook_assignment_events).
-- With $9 given (the panel's confirm: the count its preview showed), nothing is inserted
-- unless the riders who would get the path are still $9, in this statement's snapshot.
-- Returns path_found (0 or 1), created, and with $8 or $9 given: would_create (riders matching
-- without the path open) and matched (riders matching).
-- Served by riders' primary key (one ordered scan for the IDs in $2, duplicates counted once;
-- a scan of riders for filters alone), training_path_passers' indexes and assignments_once (the conflict target, and the preview's open check).
-- The riders come from two branches, each of which is empty unless its case applies, never
-- from "$2 IS NULL OR rider_id = ANY ($2)": after five calls PostgreSQL may plan a statement
-- once for all parameters, and that plan compared every rider with every ID given (minutes).
WITH path AS (
    SELECT path_id, days_to_complete FROM paths WHERE path_id = $1
),
chosen AS (
    SELECT * FROM riders r
    WHERE rider_id = ANY ($2::text[]) AND training_rider_matches(r, $3, $5, $4, $7, NULL)
    UNION ALL
    SELECT * FROM riders r
    WHERE $2::text[] IS NULL AND training_rider_matches(r, $3, $5, $4, $7, NULL)
),
matching AS (
    SELECT r.rider_id, path.path_id,
           now() + make_interval(days => path.days_to_complete) AS deadline,
           CASE WHEN passed.rider_id IS NOT NULL THEN now() END AS completed_at
    FROM path
    CROSS JOIN chosen r
    LEFT JOIN training_path_passers($1, NULL) passed ON passed.rider_id = r.rider_id
    WHERE r.status <> 'inactive'
),
would_create AS (
    SELECT count(*) AS n
    FROM matching m
    WHERE NOT EXISTS (SELECT FROM assignments a
                      WHERE a.rider_id = m.rider_id AND a.path_id = m.path_id
                        AND a.completed_at IS NULL)
),
created AS (
    INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at)
    SELECT rider_id, path_id, $6, deadline, completed_at
    FROM matching
    WHERE NOT $8::boolean
      AND ($9::bigint IS NULL OR (SELECT n FROM would_create) = $9::bigint)
    ORDER BY rider_id
    ON CONFLICT (rider_id, path_id, completed_at) DO NOTHING
    RETURNING rider_id
)
SELECT (SELECT count(*) FROM path) AS path_found,
       (SELECT count(*) FROM created) AS created,
       CASE WHEN $8::boolean OR $9::bigint IS NOT NULL
            THEN (SELECT n FROM would_create) END AS would_create,
       CASE WHEN $8::boolean OR $9::bigint IS NOT NULL
            THEN (SELECT count(*) FROM matching) END AS matched
