-- The record of rider $1 in course $2 after a submission: completedAt, proof code, best
-- score, attempts. Served by course_results' primary key.
SELECT completed_at, proof_code, score, attempts
FROM course_results
WHERE rider_id = $1 AND course_id = $2
