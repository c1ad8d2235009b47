-- The distributions of course $1's recorded quiz attempts, for the riders matching
-- $2 markets and $3 cities (NULL: any): kind 'attempts' (bucket: the attempt number at which
-- a rider first passed, 5 for 5 or more; count: riders) and kind 'score' (bucket: the score's
-- tenth, 0 for 0–9 … 9 for 90–100; count: attempts). Run planned per call. Served by
-- quiz_attempts' primary key (course_id leads).
WITH attempts AS (
    SELECT qa.rider_id, qa.attempt, qa.score, qa.passed
    FROM quiz_attempts qa
    WHERE qa.course_id = $1
      AND ($2::text[] IS NULL AND $3::text[] IS NULL
           OR qa.rider_id IN (SELECT r.rider_id FROM riders r
                              WHERE ($2::text[] IS NULL OR r.market = ANY ($2))
                                AND ($3::text[] IS NULL OR r.city = ANY ($3))))
)
SELECT 'attempts' AS kind, least(p.first_pass, 5) AS bucket, count(*) AS count
FROM (SELECT min(attempt) AS first_pass FROM attempts WHERE passed GROUP BY rider_id) p
GROUP BY 2
UNION ALL
SELECT 'score', least(floor(score / 10)::int, 9), count(*)
FROM attempts
GROUP BY 2
ORDER BY 1, 2
