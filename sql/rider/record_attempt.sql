-- Counts a quiz attempt of rider $1 in course $2 scoring $3: attempts + 1, the best score
-- kept. The record exists and is locked (view_course.sql ran first in the transaction).
-- Returns the record: the fields a completion (training/upsert_results) is made of, and
-- completedAt and proof code (set when passed before).
-- Served by course_results' primary key.
UPDATE course_results
SET attempts = attempts + 1,
    score = greatest(score, $3)
WHERE rider_id = $1 AND course_id = $2
RETURNING rider_id, course_id, language, started_at, score, attempts, time_spent_seconds,
          completed_at, proof_code
