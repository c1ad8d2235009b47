-- How far path $1 was assigned: riders who have or had it, open and completed assignments.
-- One scan of assignments (see path_list.sql: no index leads with path_id).
SELECT count(DISTINCT rider_id) AS riders,
       count(*) FILTER (WHERE completed_at IS NULL) AS open,
       count(*) FILTER (WHERE completed_at IS NOT NULL) AS completed
FROM assignments
WHERE path_id = $1
