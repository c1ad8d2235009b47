-- The riders to remind: the $1 open assignments with the oldest deadlines among riders who
-- are not inactive, one row per rider (rider_id, name, phone, paths text[], deadlines
-- timestamptz[], both oldest deadline first), riders in the order of their oldest deadline.
-- No index of its own: a daily run reads assignments in one sequential scan with a top-N sort
-- (see bench/README.md), because an index on open deadlines would slow every bulk assignment.
-- Riders and paths by their primary keys (or hashed, when the planner prefers).
WITH picked AS (
    SELECT a.rider_id, r.name, r.phone, a.assignment_id, a.deadline, p.name AS path
    FROM assignments a
    JOIN riders r ON r.rider_id = a.rider_id
    JOIN paths p ON p.path_id = a.path_id
    WHERE a.completed_at IS NULL AND r.status <> 'inactive'
    ORDER BY a.deadline, a.assignment_id
    LIMIT $1
)
SELECT rider_id, name, phone,
       array_agg(path ORDER BY deadline, assignment_id) AS paths,
       array_agg(deadline ORDER BY deadline, assignment_id) AS deadlines
FROM picked
GROUP BY rider_id, name, phone
ORDER BY min(deadline), rider_id
