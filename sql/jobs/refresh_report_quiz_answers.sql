-- The reports job: replaces report_quiz_answers with the recorded answers now, by course,
-- the rider's market and city, question, first attempt (attempt 1) or not and right or not,
-- with the sum and the sum of squares of their rest-of-test scores (right answers to the
-- attempt's other questions; docs/reports.md, "Item analysis"). Two scans of
-- quiz_answers (one counts each attempt's right answers) hashed against each other and
-- riders. Returns nothing.
WITH old AS (DELETE FROM report_quiz_answers),
attempts AS (
    SELECT course_id, rider_id, attempt, count(*) FILTER (WHERE correct) AS right_answers
    FROM quiz_answers
    GROUP BY course_id, rider_id, attempt
),
answers AS (
    SELECT qa.course_id, r.market, r.city, qa.question, qa.attempt = 1 AS first, qa.correct,
           t.right_answers - qa.correct::integer AS rest
    FROM quiz_answers qa
    JOIN attempts t USING (course_id, rider_id, attempt)
    JOIN riders r USING (rider_id)
)
INSERT INTO report_quiz_answers (course_id, market, city, question, first, correct, answered,
                                 rest, rest_squares)
SELECT course_id, market, city, question, first, correct, count(*), sum(rest),
       sum(rest * rest)
FROM answers
GROUP BY 1, 2, 3, 4, 5, 6
