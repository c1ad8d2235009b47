-- Makes rider $1's record of course $2 a completion, in the transaction of a quiz pass or of
-- the completion of a course without quiz (the record is locked by view_course.sql): the first
-- pass's completedAt and proof code are kept; the other fields are the record's own, so this
-- is load-data's merge (training/upsert_results.sql) of a record into itself. A new proof code
-- that repeats a stored one violates course_results_proof_code_key (the caller runs its
-- transaction again). Returns completedAt, proof code, best score and attempts. Served by
-- course_results' primary key.
UPDATE course_results
SET completed_at = coalesce(completed_at, now()),
    proof_code = coalesce(proof_code, training_proof_code())
WHERE rider_id = $1 AND course_id = $2
RETURNING completed_at, proof_code, score, attempts
