-- Completes every open assignment whose rider has passed all courses of its path (after a
-- load that brought course results or changed paths). Returns nothing. A scan of
-- assignments (a load's cost, not a request's), then course_results' primary key.
UPDATE assignments
SET completed_at = now()
WHERE completed_at IS NULL AND training_path_passed(rider_id, path_id)
