-- Completes every open assignment whose rider has passed all courses of its path (after a
-- load that brought course results or changed paths). Returns nothing. Served by
-- assignments_open_uniq (open ones) and course_results' primary key.
UPDATE assignments
SET completed_at = now()
WHERE completed_at IS NULL AND training_path_passed(rider_id, path_id)
