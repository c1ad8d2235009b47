-- Counts a quiz attempt of rider $1 in course $2 shown in language $3, scoring $4 (passed
-- $5), in one statement with the view of the page it answers (the record's time spent, last
-- view and language as view_course.sql keeps them, under the rule of who may open the course
-- and the check of the versions shown, $8–$10: rider_open_course). Its writes: the quiz form's
-- attempt_id $7 with its grade (the indexes of the questions not answered right), when the
-- form sent one; then, unless that attempt_id was recorded before, the record (created by a
-- quiz answered before any view) with attempts + 1 and the best score kept, the attempt, and
-- the options chosen for each question for the item analysis ($6, a JSON array in quiz order
-- of {"chosen": [0, 2], "correct": true}). A repeated attempt_id writes nothing at all, view
-- included: a parallel repeat waits on the key until the first commits. The answers come as
-- one jsonb value, not as boolean[] and integer[] parameters: asyncpg looks an array type up
-- on each new connection with a catalog query that costs a cold server process about 5 ms to
-- plan. Returns one row: `opened` (false: the rider may not open the course, or it is no
-- longer the version shown, and nothing was written), `repeat`, and the record when counted
-- (completedAt and proof code set when passed before), locked until the transaction ends.
-- Served by rider_open_course's indexes and the primary keys of course_results,
-- quiz_attempts, quiz_answers and quiz_attempt_ids.
WITH course AS (
    SELECT course_id FROM rider_open_course($1, $2, $8, $9, $10)
), answer AS (
    SELECT q.n - 1 AS question, q.chosen, q.correct
    FROM ROWS FROM (jsonb_to_recordset($6::jsonb) AS (chosen smallint[], correct boolean))
         WITH ORDINALITY AS q (chosen, correct, n)
), kept AS (
    INSERT INTO quiz_attempt_ids (rider_id, course_id, attempt_id, score, passed, wrong)
    SELECT $1, course_id, $7::uuid, $4, $5,
           ARRAY(SELECT question FROM answer WHERE NOT correct ORDER BY question)
    FROM course
    WHERE $7::uuid IS NOT NULL
    ON CONFLICT (rider_id, course_id, attempt_id) DO NOTHING
    RETURNING attempt_id
), counted AS (
    INSERT INTO course_results AS cr (rider_id, course_id, language, started_at,
                                      last_viewed_at, furthest_lesson, attempts, score)
    SELECT $1, course_id, $3, now(), now(), 0, 1, $4
    FROM course
    WHERE $7::uuid IS NULL OR EXISTS (SELECT FROM kept)
    ON CONFLICT (rider_id, course_id) DO UPDATE SET
        time_spent_seconds = cr.time_spent_seconds + coalesce(
            least(300, greatest(0, floor(extract(epoch FROM now() - cr.last_viewed_at))))::int,
            0),
        last_viewed_at = now(),
        language = CASE WHEN cr.completed_at IS NULL THEN excluded.language ELSE cr.language END,
        attempts = cr.attempts + 1,
        score = greatest(cr.score, excluded.score)
    RETURNING cr.rider_id, cr.course_id, cr.language, cr.started_at, cr.score, cr.attempts,
              cr.time_spent_seconds, cr.completed_at, cr.proof_code
), attempt AS (
    INSERT INTO quiz_attempts (course_id, rider_id, attempt, score, passed)
    SELECT course_id, rider_id, attempts, $4, $5 FROM counted
    RETURNING course_id, rider_id, attempt
), answers AS (
    INSERT INTO quiz_answers (course_id, rider_id, attempt, question, chosen, correct)
    SELECT a.course_id, a.rider_id, a.attempt, q.question, q.chosen, q.correct
    FROM attempt a, answer q
)
SELECT EXISTS (SELECT FROM course) AS opened,
       $7::uuid IS NOT NULL AND NOT EXISTS (SELECT FROM kept) AS repeat,
       counted.*
FROM (SELECT) AS one
LEFT JOIN counted ON true
