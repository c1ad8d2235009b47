-- The item analysis of course $1 (docs/reports.md) from the reports job's summary
-- (report_quiz_answers), one row per question answered in a recorded attempt: question
-- (index from 0), answered (attempts that answered it), first_answered (in riders' first
-- attempts: attempt 1), and the rates right in first attempts and over all, in percent with
-- one decimal (NULL without attempts), for the riders matching $2 markets and $3 cities
-- (NULL: any). Run planned per call. Served by report_quiz_answers_course.
SELECT q.question, q.answered, q.first_answered,
       round(100.0 * q.first_correct / nullif(q.first_answered, 0), 1) AS first_correct_rate,
       round(100.0 * q.correct / q.answered, 1) AS correct_rate
FROM (SELECT question, sum(answered) AS answered,
             coalesce(sum(answered) FILTER (WHERE first), 0) AS first_answered,
             coalesce(sum(answered) FILTER (WHERE first AND correct), 0) AS first_correct,
             coalesce(sum(answered) FILTER (WHERE correct), 0) AS correct
      FROM report_quiz_answers
      WHERE course_id = $1
        AND ($2::text[] IS NULL OR market = ANY ($2))
        AND ($3::text[] IS NULL OR city = ANY ($3))
      GROUP BY question) q
ORDER BY q.question
