-- Completes the open assignments of rider $1 whose path holds course $2 (just passed) and is
-- now passed whole (training_path_passers, for this rider alone: complete_assignments.sql
-- completes every rider's, a load's cost, not a request's).
-- Their `assignment.completed` webhook events are written by the trigger on assignments
-- (webhook_assignment_events). Returns nothing. Served by the rider_id prefix of
-- assignments_once and path_courses' key.
UPDATE assignments a
SET completed_at = now()
WHERE a.rider_id = $1
  AND a.completed_at IS NULL
  AND EXISTS (SELECT FROM path_courses pc
              WHERE pc.path_id = a.path_id AND pc.course_id = $2)
  AND EXISTS (SELECT FROM training_path_passers(a.path_id, ARRAY[$1::text]))
