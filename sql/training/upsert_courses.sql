-- load-data `courses`, older records (no lessons): creates or updates courses from a JSON array
-- of { id, title, has_quiz, pass_mark, published }; published null keeps the stored value
-- (true for a new course: loaded catalogues are live, as before course content existed).
-- A course that has content is left alone and not returned: the caller rejects that record.
-- Returns the course_id of every course written. Served by courses' primary key.
WITH r AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb)
        AS r(id uuid, title text, has_quiz boolean, pass_mark integer, published boolean)
)
INSERT INTO courses AS c (course_id, title, has_quiz, pass_mark, published)
SELECT id, title, has_quiz, pass_mark, coalesce(published, true) FROM r
ON CONFLICT (course_id) DO UPDATE SET
    title = excluded.title, has_quiz = excluded.has_quiz, pass_mark = excluded.pass_mark,
    published = coalesce((SELECT r.published FROM r WHERE r.id = excluded.course_id),
                         c.published),
    updated_at = now()
WHERE c.content IS NULL
RETURNING course_id
