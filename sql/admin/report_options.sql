-- The options chosen in answers to course $1's questions, from the reports job's summary
-- (report_quiz_options): question, option (indexes from 0), chosen (how many answers chose
-- it) and wrong (how many wrong answers did), for the riders matching $2 markets and $3
-- cities (NULL: any). The caller names the options and takes the wrong one chosen most. Run
-- planned per call. Served by report_quiz_options_course.
SELECT question, option, sum(chosen) AS chosen, sum(wrong) AS wrong
FROM report_quiz_options
WHERE course_id = $1
  AND ($2::text[] IS NULL OR market = ANY ($2))
  AND ($3::text[] IS NULL OR city = ANY ($3))
GROUP BY question, option
