-- The item analysis of course $1 (docs/reports.md) from the reports
-- job's summary (report_quiz_answers), one row per question answered in a recorded attempt:
-- question (index from 0), answered (attempts that answered it), first_answered (in riders'
-- first attempts: attempt 1), the rates right in first attempts and over all (the latter is
-- the facility index: a question scores 1 or 0), and the discrimination index (the
-- correlation of the question's score with the rest-of-test score over all recorded
-- attempts, from the summary's sums; NULL when either does not vary), all in percent with
-- one decimal (NULL without attempts), for the riders matching $2 markets and $3 cities
-- (NULL: any). Run planned per call. Served by report_quiz_answers_course.
SELECT q.question, q.answered, q.first_answered,
       round(100.0 * q.first_correct / nullif(q.first_answered, 0), 1) AS first_correct_rate,
       round(100.0 * q.correct / q.answered, 1) AS correct_rate,
       round((100 * (q.n * q.correct_rest - q.x * q.rest)
              / sqrt(nullif((q.n * q.x - q.x * q.x) * (q.n * q.rest_squares - q.rest * q.rest),
                            0)))::numeric, 1) AS discrimination
FROM (SELECT question, sum(answered) AS answered,
             coalesce(sum(answered) FILTER (WHERE first), 0) AS first_answered,
             coalesce(sum(answered) FILTER (WHERE first AND correct), 0) AS first_correct,
             coalesce(sum(answered) FILTER (WHERE correct), 0) AS correct,
             sum(answered)::float8 AS n,
             coalesce(sum(answered) FILTER (WHERE correct), 0)::float8 AS x,
             sum(rest)::float8 AS rest,
             sum(rest_squares)::float8 AS rest_squares,
             coalesce(sum(rest) FILTER (WHERE correct), 0)::float8 AS correct_rest
      FROM report_quiz_answers
      WHERE course_id = $1
        AND ($2::text[] IS NULL OR market = ANY ($2))
        AND ($3::text[] IS NULL OR city = ANY ($3))
      GROUP BY question) q
ORDER BY q.question
