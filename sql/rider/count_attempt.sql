-- Counts a quiz attempt of rider $1 in course $2 scoring $3 (passed $4) in one statement, the
-- three writes a submission makes before a pass: the record's attempts + 1 with the best score
-- kept (the record exists and is locked: view_course.sql ran first in the transaction); the
-- attempt with the options chosen for each question, for the item analysis ($5, a JSON array
-- in quiz order of {"chosen": [0, 2], "correct": true}); and the quiz form's attempt_id $6
-- with its grade (the indexes of the questions not answered right), when the form sent one,
-- unless it was recorded before (a parallel repeat waits here on the key until the first
-- commits). The answers come as one jsonb value, not as boolean[] and integer[] parameters:
-- asyncpg looks an array type up on each new connection with a catalog query that costs a
-- cold server process about 5 ms to plan. Returns the record (completedAt and proof code set
-- when passed before) and `repeat`: the attempt_id was recorded before (the caller then rolls
-- its transaction back, so nothing is counted twice). Served by the primary keys of
-- course_results, quiz_attempts, quiz_answers and quiz_attempt_ids.
WITH counted AS (
    UPDATE course_results
    SET attempts = attempts + 1,
        score = greatest(score, $3)
    WHERE rider_id = $1 AND course_id = $2
    RETURNING rider_id, course_id, language, started_at, score, attempts, time_spent_seconds,
              completed_at, proof_code
), attempt AS (
    INSERT INTO quiz_attempts (course_id, rider_id, attempt, score, passed)
    SELECT course_id, rider_id, attempts, $3, $4 FROM counted
    RETURNING course_id, rider_id, attempt
), answer AS (
    SELECT q.n - 1 AS question, q.chosen, q.correct
    FROM ROWS FROM (jsonb_to_recordset($5::jsonb) AS (chosen smallint[], correct boolean))
         WITH ORDINALITY AS q (chosen, correct, n)
), answers AS (
    INSERT INTO quiz_answers (course_id, rider_id, attempt, question, chosen, correct)
    SELECT a.course_id, a.rider_id, a.attempt, q.question, q.chosen, q.correct
    FROM attempt a, answer q
), kept AS (
    INSERT INTO quiz_attempt_ids (rider_id, course_id, attempt_id, score, passed, wrong)
    SELECT $1, $2, $6::uuid, $3, $4,
           ARRAY(SELECT question FROM answer WHERE NOT correct ORDER BY question)
    WHERE $6::uuid IS NOT NULL
    ON CONFLICT (rider_id, course_id, attempt_id) DO NOTHING
    RETURNING attempt_id
)
SELECT counted.*, $6::uuid IS NOT NULL AND NOT EXISTS (SELECT FROM kept) AS repeat
FROM counted
