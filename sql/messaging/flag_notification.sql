-- What a flag's message says: rider $1's name and phone with the latest assignment of each of
-- the paths $2 the flag just assigned (path name, deadline, whether it completed at once
-- because its courses were passed before), oldest deadline first; no row for an unknown rider.
-- Served by riders' primary key, the (rider_id, path_id) prefix of assignments_once, paths' key.
SELECT r.name, r.phone, p.name AS path, a.deadline, a.completed_at IS NOT NULL AS completed
FROM riders r
CROSS JOIN LATERAL (
    SELECT DISTINCT ON (path_id) path_id, deadline, completed_at
    FROM assignments
    WHERE rider_id = r.rider_id AND path_id = ANY ($2::uuid[])
    ORDER BY path_id, assignment_id DESC
) a
JOIN paths p ON p.path_id = a.path_id
WHERE r.rider_id = $1
ORDER BY a.deadline, p.name
