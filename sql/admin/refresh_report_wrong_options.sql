-- The reports job: replaces report_quiz_wrong_options with the options chosen in wrong
-- answers now, by course, the rider's market and city, question and option. One scan of
-- quiz_answers hashed against riders. Returns nothing.
WITH old AS (DELETE FROM report_quiz_wrong_options)
INSERT INTO report_quiz_wrong_options (course_id, market, city, question, option, chosen)
SELECT qa.course_id, r.market, r.city, qa.question, o.option, count(*)
FROM quiz_answers qa
JOIN riders r USING (rider_id)
CROSS JOIN unnest(qa.chosen) AS o (option)
WHERE NOT qa.correct
GROUP BY 1, 2, 3, 4, 5
