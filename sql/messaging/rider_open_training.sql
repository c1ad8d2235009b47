-- The rider's name, status and links_revoked_at with each open assignment's path and deadline, oldest deadline
-- first: one row per open assignment, one row with null path and deadline when none is open,
-- no row for an unknown rider ($1: rider id).
-- Served by riders' primary key and the rider_id prefix of assignments_once.
SELECT r.name, r.status, r.links_revoked_at, p.name AS path, a.deadline
FROM riders r
LEFT JOIN assignments a ON a.rider_id = r.rider_id AND a.completed_at IS NULL
LEFT JOIN paths p ON p.path_id = a.path_id
WHERE r.rider_id = $1
ORDER BY a.deadline, p.name
