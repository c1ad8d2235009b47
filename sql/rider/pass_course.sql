-- Makes rider $1's record of course $2 a completion and completes the assignments it
-- finishes, in the caller's transaction with the record locked. Returns completedAt, proof
-- code, best score, attempts, first_pass and announced: sql/rider/functions/
-- rider_pass_course.sql, which says what each means and which indexes serve it.
SELECT * FROM rider_pass_course($1, $2)
