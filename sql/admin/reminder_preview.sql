-- What a reminders run started now would send (the jobs page's confirmation): riders, the
-- number of riders among the $1 open assignments with the oldest deadlines of riders who are
-- not inactive, as jobs/reminders.py picks them; assignments, how many of those it names.
-- Like the run, one sequential scan of assignments with a top-N sort (bench/README.md).
SELECT count(DISTINCT rider_id) AS riders, count(*) AS assignments
FROM (
    SELECT a.rider_id
    FROM assignments a
    JOIN riders r ON r.rider_id = a.rider_id
    WHERE a.completed_at IS NULL AND r.status <> 'inactive'
    ORDER BY a.deadline, a.assignment_id
    LIMIT $1
) picked
