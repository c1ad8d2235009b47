-- The distributions of course $1's recorded quiz attempts from the reports job's summary
-- (report_quiz_attempts), for the riders matching $2 markets and $3 cities (NULL: any):
-- kind 'attempts' (bucket: the attempt at which a rider first passed, 5 for 5 or more;
-- count: riders) and 'score' (bucket: the score's tenth, 0–9; count: attempts). Run planned
-- per call. Served by report_quiz_attempts_course.
SELECT kind, bucket, sum(count) AS count
FROM report_quiz_attempts
WHERE course_id = $1
  AND ($2::text[] IS NULL OR market = ANY ($2))
  AND ($3::text[] IS NULL OR city = ANY ($3))
GROUP BY kind, bucket
ORDER BY kind, bucket
