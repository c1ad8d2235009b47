-- The riders to remind: the $1 open assignments with the oldest deadlines among riders who
-- are not inactive, one row per rider (rider_id, name, phone, paths text[], deadlines
-- timestamptz[], both oldest deadline first), riders in the order of their oldest deadline.
-- No index of its own: a daily run reads assignments in one sequential scan with a top-N sort
-- (see bench/README.md), because an index on open deadlines would slow every bulk assignment.
-- Riders and paths by their primary keys (or hashed, when the planner prefers).
WITH picked AS (
    SELECT a.rider_id, a.assignment_id, a.deadline, p.name AS path
    FROM assignments a
    JOIN riders r ON r.rider_id = a.rider_id
    JOIN paths p ON p.path_id = a.path_id
    WHERE a.completed_at IS NULL AND r.status <> 'inactive'
    ORDER BY a.deadline, a.assignment_id
    LIMIT $1
)
SELECT r.rider_id, r.name, r.phone,
       array_agg(picked.path ORDER BY picked.deadline, picked.assignment_id) AS paths,
       array_agg(picked.deadline ORDER BY picked.deadline, picked.assignment_id) AS deadlines
FROM picked
JOIN riders r ON r.rider_id = picked.rider_id
GROUP BY r.rider_id
ORDER BY min(picked.deadline), r.rider_id
