-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- A quiz answer of rider p_rider_id in course p_course_id shown in language p_language,
-- scoring p_score (passed: p_passed), counted in one call (docs/rider-app.md#quiz), so a pass
-- costs one round trip and is atomic without a transaction of the caller's.
--
-- The count, with the view of the page it answers (the record's time spent, last view and
-- language as view_course.sql keeps them), under the rule of who may open the course and the
-- check of the version shown (p_course_version, p_version_language, p_translation_version:
-- rider_open_course, NULL for no check). Its writes: the quiz form's attempt_id p_attempt_id
-- with its grade (the indexes of the questions not answered right), when the form sent one;
-- then, unless that attempt_id was recorded before, the record (created by a quiz answered
-- before any view) with attempts + 1 and the best score kept, the attempt, and the options
-- chosen for each question for the item analysis (p_answers, a JSON array in quiz order of
-- {"chosen": [0, 2], "correct": true}). A repeated attempt_id writes nothing at all, view
-- included: a parallel repeat waits on the key until the first commits. The answers come as
-- one jsonb value, not as boolean[] and integer[] parameters: asyncpg looks an array type up
-- on each new connection with a catalog query that costs a cold server process about 5 ms.
--
-- Then, when the attempt passed and was counted, the pass (rider_pass_course), under the
-- record's lock the count took. A pass with an endpoint taking completion.created events
-- must write its event in the same transaction, from the caller (the event's cursor is
-- sealed there): unless p_announcing (the caller's transaction is open for it), such a call
-- writes nothing and answers `announce`, and the caller calls again in a transaction.
--
-- Returns one row: `opened` (false: the rider may not open the course, or it is no longer
-- the version shown, and nothing was written), `repeat` (the attempt_id was recorded before,
-- nothing written), `announce` (see above, nothing written), and the record as counted or
-- passed (completedAt and proof code set when passed), locked until the transaction ends,
-- with the pass's `first_pass` and `announced`. Served by rider_open_course's indexes, the
-- primary keys of course_results, quiz_attempts, quiz_answers and quiz_attempt_ids, and
-- rider_pass_course's.
CREATE OR REPLACE FUNCTION rider_answer_quiz(
    p_rider_id text, p_course_id uuid, p_language text, p_score double precision,
    p_passed boolean, p_answers jsonb, p_attempt_id uuid, p_course_version xid,
    p_version_language text, p_translation_version xid, p_announcing boolean
) RETURNS TABLE (
    opened boolean, repeat boolean, announce boolean, completed_at timestamptz,
    proof_code text, score double precision, attempts integer, first_pass boolean,
    announced boolean
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    counted record;
BEGIN
    IF p_passed AND NOT p_announcing
       AND EXISTS (SELECT FROM webhook_subscriptions WHERE event_type = 'completion.created')
    THEN
        RETURN QUERY SELECT true, false, true, NULL::timestamptz, NULL::text,
                            NULL::double precision, NULL::integer, false, true;
        RETURN;
    END IF;

    WITH course AS (
        SELECT course_id
        FROM rider_open_course(p_rider_id, p_course_id, p_course_version, p_version_language,
                               p_translation_version)
    ), answer AS (
        SELECT q.n - 1 AS question, q.chosen, q.correct
        FROM ROWS FROM (jsonb_to_recordset(p_answers) AS (chosen smallint[], correct boolean))
             WITH ORDINALITY AS q (chosen, correct, n)
    ), kept AS (
        INSERT INTO quiz_attempt_ids (rider_id, course_id, attempt_id, score, passed, wrong)
        SELECT p_rider_id, course_id, p_attempt_id, p_score, p_passed,
               ARRAY(SELECT question FROM answer WHERE NOT correct ORDER BY question)
        FROM course
        WHERE p_attempt_id IS NOT NULL
        ON CONFLICT (rider_id, course_id, attempt_id) DO NOTHING
        RETURNING attempt_id
    ), counting AS (
        INSERT INTO course_results AS cr (rider_id, course_id, language, started_at,
                                          last_viewed_at, furthest_lesson, attempts, score)
        SELECT p_rider_id, course_id, p_language, now(), now(), 0, 1, p_score
        FROM course
        WHERE p_attempt_id IS NULL OR EXISTS (SELECT FROM kept)
        ON CONFLICT (rider_id, course_id) DO UPDATE SET
            time_spent_seconds = cr.time_spent_seconds + coalesce(
                least(300, greatest(0, floor(extract(epoch FROM now() - cr.last_viewed_at))))::int,
                0),
            last_viewed_at = now(),
            language = CASE WHEN cr.completed_at IS NULL THEN excluded.language
                            ELSE cr.language END,
            attempts = cr.attempts + 1,
            score = greatest(cr.score, excluded.score)
        RETURNING cr.rider_id, cr.course_id, cr.score, cr.attempts, cr.completed_at,
                  cr.proof_code
    ), attempt AS (
        INSERT INTO quiz_attempts (course_id, rider_id, attempt, score, passed)
        SELECT course_id, rider_id, attempts, p_score, p_passed FROM counting
        RETURNING course_id, rider_id, attempt
    ), answers AS (
        INSERT INTO quiz_answers (course_id, rider_id, attempt, question, chosen, correct)
        SELECT a.course_id, a.rider_id, a.attempt, q.question, q.chosen, q.correct
        FROM attempt a, answer q
    )
    SELECT EXISTS (SELECT FROM course) AS opened,
           p_attempt_id IS NOT NULL AND NOT EXISTS (SELECT FROM kept) AS repeat,
           counting.rider_id IS NOT NULL AS counted,
           counting.score, counting.attempts, counting.completed_at, counting.proof_code
    INTO counted
    FROM (SELECT) AS one
    LEFT JOIN counting ON true;

    IF counted.counted AND p_passed THEN
        RETURN QUERY SELECT true, false, false, p.completed_at, p.proof_code, p.score,
                            p.attempts, p.first_pass, p.announced
                     FROM rider_pass_course(p_rider_id, p_course_id) AS p;
    ELSE
        RETURN QUERY SELECT counted.opened, counted.repeat, false, counted.completed_at,
                            counted.proof_code, counted.score, counted.attempts, false, false;
    END IF;
END
$$;
