-- Counts a quiz answer of rider $1 in course $2 shown in language $3, scoring $4 (passed $5,
-- options chosen $6, the form's attempt_id $7), checked against the version shown ($8–$10),
-- and passes the course when it passed; $11: the caller's transaction is open for a
-- completion event. Returns opened, repeat, announce, completedAt, proof code, best score,
-- attempts, first_pass and announced: sql/rider/functions/rider_answer_quiz.sql, which says
-- what each means and which indexes serve it.
SELECT * FROM rider_answer_quiz($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
