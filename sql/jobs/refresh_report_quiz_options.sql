-- The reports job: replaces report_quiz_options with the options chosen in the recorded
-- answers now, by course, the rider's market and city, question and option: chosen (answers
-- that chose it) and wrong (of those, the wrong answers). One scan of quiz_answers hashed
-- against riders. Returns nothing.
WITH old AS (DELETE FROM report_quiz_options)
INSERT INTO report_quiz_options (course_id, market, city, question, option, chosen, wrong)
SELECT qa.course_id, r.market, r.city, qa.question, o.option, count(*),
       count(*) FILTER (WHERE NOT qa.correct)
FROM quiz_answers qa
JOIN riders r USING (rider_id)
CROSS JOIN unnest(qa.chosen) AS o (option)
GROUP BY 1, 2, 3, 4, 5
