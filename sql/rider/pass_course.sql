-- Makes rider $1's record of course $2 a completion, in the transaction of a quiz pass or of
-- the completion of a course without quiz (the record is locked by count_attempt.sql or
-- view_course.sql, so the stored record read here is the last committed one): the first
-- pass's completedAt and proof code are kept; the other fields are the record's own, so this
-- is load-data's merge (training/upsert_results.sql) of a record into itself. A new proof
-- code that repeats a stored one violates course_results_proof_code_key (the caller runs its
-- transaction again).
-- Returns completedAt, proof code, best score, attempts, `first_pass` (the record had no
-- completedAt before) and `announced`: an endpoint takes completion.created events (when none
-- does, the caller makes no event, which webhooks/enqueue.sql would not store anyway).
-- Served by course_results' primary key; webhook_subscriptions is small and scanned.
WITH stored AS (
    SELECT completed_at FROM course_results WHERE rider_id = $1 AND course_id = $2
)
UPDATE course_results cr
SET completed_at = coalesce(cr.completed_at, now()),
    proof_code = coalesce(cr.proof_code, training_proof_code())
FROM stored
WHERE cr.rider_id = $1 AND cr.course_id = $2
RETURNING cr.completed_at, cr.proof_code, cr.score, cr.attempts,
          stored.completed_at IS NULL AS first_pass,
          EXISTS (SELECT FROM webhook_subscriptions
                  WHERE event_type = 'completion.created') AS announced
