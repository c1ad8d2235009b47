-- Completes the open assignments of rider $1 whose path holds course $2 (just passed) and is
-- now passed whole (training_path_passed, the rule of complete_assignments.sql for one
-- rider: that statement scans every open assignment, a load's cost, not a request's).
-- Writes their `assignment.completed` webhook events for the endpoints subscribed.
-- Returns nothing. Served by the rider_id prefix of assignments_once and path_courses' key.
WITH completed AS (
    UPDATE assignments a
    SET completed_at = now()
    WHERE a.rider_id = $1
      AND a.completed_at IS NULL
      AND EXISTS (SELECT FROM path_courses pc
                  WHERE pc.path_id = a.path_id AND pc.course_id = $2)
      AND training_path_passed(a.rider_id, a.path_id)
    RETURNING a.rider_id, a.path_id, a.deadline, a.completed_at, a.why
)
INSERT INTO webhook_deliveries (endpoint_id, event_type, rider_id, path_id, deadline,
                                completed_at, why)
SELECT s.endpoint_id, s.event_type, c.rider_id, c.path_id, c.deadline, c.completed_at, c.why
FROM completed c
JOIN webhook_subscriptions s ON s.event_type = 'assignment.completed'
