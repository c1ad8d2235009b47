-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- "A rider passed a path" (docs/api-training.md#assignments): the rider has passed every course of the
-- path, so a path without courses is passed by everyone; an assignment made then is completed
-- at once, and an open one is completed when it becomes so. The one statement of the rule:
-- the riders of p_rider_ids (NULL: every rider) who passed path p_path_id, each once.
-- Set-based (one count over course_results a path, not a probe a rider: 250,000 riders cost
-- one scan of the path's results), and a set-returning SQL function of one SELECT, STABLE,
-- neither STRICT nor with a SET clause, so the planner inlines it into the statement that
-- calls it in its FROM (LATERAL for several paths; EXISTS for one rider and path).
-- Each case is a branch that is empty unless it applies (one-time filters), never
-- "p_rider_ids IS NULL OR …": a generic plan would compare every row with every ID given.
-- Served by course_results' primary key for the riders given, course_results_course for
-- every rider, path_courses' key, and riders' key or a scan of riders for a path without
-- courses.
CREATE OR REPLACE FUNCTION training_path_passers(p_path_id uuid, p_rider_ids text[])
RETURNS TABLE (rider_id text)
LANGUAGE sql STABLE AS $$
    SELECT cr.rider_id
    FROM path_courses pc
    JOIN course_results cr ON cr.course_id = pc.course_id AND cr.completed_at IS NOT NULL
    WHERE pc.path_id = p_path_id AND cr.rider_id = ANY (p_rider_ids)
    GROUP BY cr.rider_id
    HAVING count(*) = (SELECT count(*) FROM path_courses WHERE path_id = p_path_id)
    UNION ALL
    SELECT cr.rider_id
    FROM path_courses pc
    JOIN course_results cr ON cr.course_id = pc.course_id AND cr.completed_at IS NOT NULL
    WHERE pc.path_id = p_path_id AND p_rider_ids IS NULL
    GROUP BY cr.rider_id
    HAVING count(*) = (SELECT count(*) FROM path_courses WHERE path_id = p_path_id)
    UNION ALL
    SELECT r.rider_id
    FROM riders r
    WHERE r.rider_id = ANY (p_rider_ids)
      AND NOT EXISTS (SELECT FROM path_courses WHERE path_id = p_path_id)
    UNION ALL
    SELECT r.rider_id
    FROM riders r
    WHERE p_rider_ids IS NULL
      AND NOT EXISTS (SELECT FROM path_courses WHERE path_id = p_path_id)
$$;
