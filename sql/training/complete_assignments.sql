-- Completes every open assignment whose rider has passed its path (training_path_passers: all
-- its courses), after a load that brought course results or changed paths. Returns nothing.
-- One set-based pass a path with open assignments (a load's cost, not a request's): its
-- passers by course_results_course, joined to its open assignments by assignments_once.
UPDATE assignments a
SET completed_at = now()
FROM paths p
CROSS JOIN LATERAL training_path_passers(p.path_id, NULL) passed
WHERE a.path_id = p.path_id
  AND a.rider_id = passed.rider_id
  AND a.completed_at IS NULL
