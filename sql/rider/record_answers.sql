-- Records attempt number $3 of rider $1 in course $2 (score $4, passed $5) with the options
-- chosen for each question: $6, one array literal a question in quiz order ('{0,2}'), and
-- $7, whether that question was answered right. One statement for both tables, run in the
-- quiz POST's transaction, so a rolled-back repeat leaves nothing. Returns nothing.
-- Served by the primary keys of quiz_attempts and quiz_answers (inserts only).
WITH attempt AS (
    INSERT INTO quiz_attempts (course_id, rider_id, attempt, score, passed)
    VALUES ($2, $1, $3, $4, $5)
    RETURNING course_id, rider_id, attempt
)
INSERT INTO quiz_answers (course_id, rider_id, attempt, question, chosen, correct)
SELECT a.course_id, a.rider_id, a.attempt, q.n - 1, q.chosen::smallint[], q.correct
FROM attempt a,
     unnest($6::text[], $7::boolean[]) WITH ORDINALITY AS q (chosen, correct, n)
