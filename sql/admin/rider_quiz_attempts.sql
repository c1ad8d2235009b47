-- Rider $1's recorded quiz attempts, newest first, at most $2: course title, attempt (1 for
-- the first), recorded_at, score, passed. Served by course_results' primary key (the rider's
-- courses) and quiz_attempts' primary key (course, rider).
SELECT c.title, q.attempt, q.recorded_at, q.score, q.passed
FROM course_results cr
JOIN courses c ON c.course_id = cr.course_id
JOIN quiz_attempts q ON q.course_id = cr.course_id AND q.rider_id = cr.rider_id
WHERE cr.rider_id = $1
ORDER BY q.recorded_at DESC, q.attempt DESC
LIMIT $2
