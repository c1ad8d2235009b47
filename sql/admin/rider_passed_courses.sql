-- The courses rider $1 passed, newest first: course title, completed_at, score, proof_code.
-- Served by course_results' primary key (rider_id prefix), courses' key.
SELECT c.title, cr.completed_at, cr.score, cr.proof_code
FROM course_results cr
JOIN courses c ON c.course_id = cr.course_id
WHERE cr.rider_id = $1 AND cr.completed_at IS NOT NULL
ORDER BY cr.completed_at DESC
