-- The options chosen in wrong answers to course $1's questions, from the reports job's
-- summary (report_quiz_wrong_options): question, option (indexes from 0) and chosen (how
-- many wrong answers chose it), for the riders matching $2 markets and $3 cities (NULL:
-- any). The caller leaves out the options that are correct, and takes the most chosen. Run
-- planned per call. Served by report_quiz_wrong_options_course.
SELECT question, option, sum(chosen) AS chosen
FROM report_quiz_wrong_options
WHERE course_id = $1
  AND ($2::text[] IS NULL OR market = ANY ($2))
  AND ($3::text[] IS NULL OR city = ANY ($3))
GROUP BY question, option
