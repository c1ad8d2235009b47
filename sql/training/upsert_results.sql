-- load-data `completions`: the staged passed-course records. Records of
-- one rider and course are merged first (a retake); then, against the stored record, the
-- first pass's completed_at, proof_code and language are kept, started_at is the earliest,
-- and score, attempts and time spent never go down. A new record gets a random proof code
-- (a repeat violates course_results_proof_code_key; the caller retries).
-- Returns nothing. Served by course_results' primary key.
INSERT INTO course_results AS cr (rider_id, course_id, language, started_at, completed_at,
                                  score, attempts, time_spent_seconds, proof_code)
SELECT rider_id, course_id,
       (array_agg(language ORDER BY completed_at))[1],
       min(started_at), min(completed_at), max(score), max(attempts),
       max(time_spent_seconds), training_proof_code()
FROM staged_completions
GROUP BY rider_id, course_id
ORDER BY rider_id, course_id
ON CONFLICT (rider_id, course_id) DO UPDATE SET
    language = CASE WHEN cr.completed_at IS NULL THEN excluded.language ELSE cr.language END,
    started_at = least(cr.started_at, excluded.started_at),
    completed_at = coalesce(cr.completed_at, excluded.completed_at),
    proof_code = coalesce(cr.proof_code, excluded.proof_code),
    score = greatest(cr.score, excluded.score),
    attempts = greatest(cr.attempts, excluded.attempts),
    time_spent_seconds = greatest(cr.time_spent_seconds, excluded.time_spent_seconds)
