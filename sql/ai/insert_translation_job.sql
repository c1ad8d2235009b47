-- A new translation job (running, unclaimed) by admin $1 of course $2 into language $3.
-- Returns job_id. Served by the primary key of courses (foreign key).
INSERT INTO ai_jobs (kind, admin_id, course_id, language)
VALUES ('translation', $1, $2, $3)
RETURNING job_id
