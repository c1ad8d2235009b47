-- The reports job: replaces report_quiz_answers with the recorded answers now, by course,
-- the rider's market and city, question, first attempt (attempt 1) or not and right or not.
-- One scan of quiz_answers hashed against riders. Returns nothing.
WITH old AS (DELETE FROM report_quiz_answers)
INSERT INTO report_quiz_answers (course_id, market, city, question, first, correct, answered)
SELECT qa.course_id, r.market, r.city, qa.question, qa.attempt = 1, qa.correct, count(*)
FROM quiz_answers qa
JOIN riders r USING (rider_id)
GROUP BY 1, 2, 3, 4, 5, 6
