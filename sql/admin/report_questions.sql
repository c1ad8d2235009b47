-- The item analysis of course $1 (DESIGN §14), one row per question answered in a recorded
-- attempt: question (index from 0), answered (attempts that answered it), first_answered and
-- first_correct (in riders' first attempts: attempt 1), correct (over all attempts), and the
-- rates in percent with one decimal (NULL without attempts), for the riders matching
-- $2 markets and $3 cities (NULL: any). Run planned per call. Served by quiz_answers'
-- primary key (course_id leads).
SELECT q.question, q.answered, q.first_answered,
       round(100.0 * q.first_correct / nullif(q.first_answered, 0), 1) AS first_correct_rate,
       round(100.0 * q.correct / q.answered, 1) AS correct_rate
FROM (SELECT qa.question, count(*) AS answered,
             count(*) FILTER (WHERE qa.attempt = 1) AS first_answered,
             count(*) FILTER (WHERE qa.attempt = 1 AND qa.correct) AS first_correct,
             count(*) FILTER (WHERE qa.correct) AS correct
      FROM quiz_answers qa
      WHERE qa.course_id = $1
        AND ($2::text[] IS NULL AND $3::text[] IS NULL
             OR qa.rider_id IN (SELECT r.rider_id FROM riders r
                                WHERE ($2::text[] IS NULL OR r.market = ANY ($2))
                                  AND ($3::text[] IS NULL OR r.city = ANY ($3))))
      GROUP BY qa.question) q
ORDER BY q.question
