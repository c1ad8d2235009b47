-- The options chosen in wrong answers to course $1's questions: question, option (indexes
-- from 0) and chosen (how many wrong answers chose it), for the riders matching $2 markets and
-- $3 cities (NULL: any). The caller leaves out the options that are correct, and takes the
-- most chosen. Run planned per call. Served by quiz_answers' primary key.
SELECT qa.question, o.option, count(*) AS chosen
FROM quiz_answers qa, unnest(qa.chosen) AS o (option)
WHERE qa.course_id = $1 AND NOT qa.correct
  AND ($2::text[] IS NULL AND $3::text[] IS NULL
       OR qa.rider_id IN (SELECT r.rider_id FROM riders r
                          WHERE ($2::text[] IS NULL OR r.market = ANY ($2))
                            AND ($3::text[] IS NULL OR r.city = ANY ($3))))
GROUP BY qa.question, o.option
