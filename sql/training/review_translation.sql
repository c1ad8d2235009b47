-- Marks the translation of course $1 into $2 as reviewed by an admin. Returns the row's
-- course_id, or no row when there is no such translation. Served by its primary key.
UPDATE course_translations SET state = 'reviewed', updated_at = now()
WHERE course_id = $1 AND language = $2
RETURNING course_id
