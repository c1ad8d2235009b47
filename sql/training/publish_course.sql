-- Publishes (true) or unpublishes (false) course $1; updated_at stays the content's time.
-- Returns its course_id, or no row for an unknown course. Served by courses' primary key.
UPDATE courses SET published = $2
WHERE course_id = $1
RETURNING course_id
