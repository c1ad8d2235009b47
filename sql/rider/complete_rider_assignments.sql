-- Completes the open assignments of rider $1 whose path holds course $2 (just passed) and is
-- now passed whole (training_path_passed, the rule of complete_assignments.sql for one
-- rider: that statement scans every open assignment, a load's cost, not a request's).
-- Returns nothing. Served by the rider_id prefix of assignments_once and path_courses' key.
UPDATE assignments a
SET completed_at = now()
WHERE a.rider_id = $1
  AND a.completed_at IS NULL
  AND EXISTS (SELECT FROM path_courses pc WHERE pc.path_id = a.path_id AND pc.course_id = $2)
  AND training_path_passed(a.rider_id, a.path_id)
