-- The reports job: replaces report_quiz_attempts with the distributions of the recorded
-- attempts now (see migration 0027), by course and the rider's market and city. One scan of
-- quiz_attempts hashed against riders. Returns nothing.
WITH old AS (DELETE FROM report_quiz_attempts),
attempts AS (
    SELECT qa.course_id, qa.rider_id, r.market, r.city, qa.attempt, qa.score, qa.passed
    FROM quiz_attempts qa
    JOIN riders r USING (rider_id)
)
INSERT INTO report_quiz_attempts (course_id, market, city, kind, bucket, count)
SELECT p.course_id, p.market, p.city, 'attempts', least(p.first_pass, 5), count(*)
FROM (SELECT course_id, market, city, min(attempt) AS first_pass
      FROM attempts WHERE passed GROUP BY course_id, rider_id, market, city) p
GROUP BY 1, 2, 3, 5
UNION ALL
SELECT course_id, market, city, 'score', least(floor(score / 10)::integer, 9), count(*)
FROM attempts
GROUP BY 1, 2, 3, 5
