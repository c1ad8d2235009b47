-- Rider $1's assignments, newest first: path, why, assigned_at, deadline, completed_at, state
-- (open, overdue or completed). Served by the rider_id prefix of assignments_once, paths' key.
SELECT a.path_id, p.name AS path, a.why, a.assigned_at, a.deadline, a.completed_at,
       CASE WHEN a.completed_at IS NOT NULL THEN 'completed'
            WHEN a.deadline < now() THEN 'overdue'
            ELSE 'open' END AS state
FROM assignments a
JOIN paths p ON p.path_id = a.path_id
WHERE a.rider_id = $1
ORDER BY a.assigned_at DESC, a.assignment_id DESC
