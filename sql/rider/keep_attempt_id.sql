-- Records attempt $3 of rider $1 in course $2 (score $4, passed $5, wrong question indexes
-- $6) unless that attempt_id was recorded before. Returns the row when this is the first
-- time, no row for a repeat (the caller then rolls its transaction back, so nothing is
-- counted twice). A parallel repeat waits here on the key until the first commits.
-- Served by quiz_attempt_ids' primary key.
INSERT INTO quiz_attempt_ids (rider_id, course_id, attempt_id, score, passed, wrong)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (rider_id, course_id, attempt_id) DO NOTHING
RETURNING attempt_id
