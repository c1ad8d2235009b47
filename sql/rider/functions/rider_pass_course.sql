-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- A pass (docs/rider-app.md#passing): rider p_rider_id's record of course p_course_id becomes a
-- completion, then the rider's open assignments whose path holds the course and is now passed
-- whole are completed. Called in the transaction that locked the record (rider_answer_quiz's
-- count, or view_course.sql for a course without quiz), so the stored record read here is the
-- last committed one. The first pass's completedAt and proof code are kept; the other fields
-- are the record's own, so this is load-data's merge (training/upsert_results.sql) of a record
-- into itself. A new proof code that repeats a stored one violates
-- course_results_proof_code_key (the caller runs its transaction again).
-- The assignments are completed by the rule training_path_passers for this rider alone
-- (complete_assignments.sql completes every rider's, a load's cost, not a request's); the
-- trigger on assignments writes their `assignment.completed` events. PL/pgSQL because the
-- second statement must see the first's write; each statement is planned with its SQL
-- functions inlined (tests/rider/test_course_access.py).
-- Returns completedAt, proof code, best score, attempts, `first_pass` (the record had no
-- completedAt before) and `announced`: an endpoint takes completion.created events (when none
-- does, the caller makes no event, which webhooks/enqueue.sql would not store anyway).
-- Served by course_results' primary key, the rider_id prefix of assignments_once and
-- path_courses' key; webhook_subscriptions is small and scanned.
CREATE OR REPLACE FUNCTION rider_pass_course(p_rider_id text, p_course_id uuid)
RETURNS TABLE (
    completed_at timestamptz, proof_code text, score double precision, attempts integer,
    first_pass boolean, announced boolean
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH stored AS (
        SELECT completed_at FROM course_results
        WHERE rider_id = p_rider_id AND course_id = p_course_id
    )
    UPDATE course_results cr
    SET completed_at = coalesce(cr.completed_at, now()),
        proof_code = coalesce(cr.proof_code, training_proof_code())
    FROM stored
    WHERE cr.rider_id = p_rider_id AND cr.course_id = p_course_id
    RETURNING cr.completed_at, cr.proof_code, cr.score, cr.attempts,
              stored.completed_at IS NULL,
              EXISTS (SELECT FROM webhook_subscriptions
                      WHERE event_type = 'completion.created');

    UPDATE assignments a
    SET completed_at = now()
    WHERE a.rider_id = p_rider_id
      AND a.completed_at IS NULL
      AND EXISTS (SELECT FROM path_courses pc
                  WHERE pc.path_id = a.path_id AND pc.course_id = p_course_id)
      AND EXISTS (SELECT FROM training_path_passers(a.path_id, ARRAY[p_rider_id]));
END
$$;
