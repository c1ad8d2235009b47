-- Saves course documents (docs/api-training.md), validated by the caller: a JSON array of { id, title,
-- lessons, quiz, pass_mark, published }; published null keeps the stored value, and a new
-- course gets $2 (load-data: true, the admin editor and generation: false, a draft).
-- has_quiz follows the quiz (the completions feed and the player read it). Used for one course
-- (the editor) and for many (load-data). Returns the course_id of every course written.
-- Served by courses' primary key.
WITH r AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb)
        AS r(id uuid, title text, lessons jsonb, quiz jsonb, pass_mark integer, published boolean)
)
INSERT INTO courses AS c (course_id, title, has_quiz, pass_mark, content, published)
SELECT id, title, jsonb_array_length(quiz) > 0, pass_mark,
       jsonb_build_object('lessons', lessons, 'quiz', quiz), coalesce(published, $2::boolean)
FROM r
ON CONFLICT (course_id) DO UPDATE SET
    title = excluded.title, has_quiz = excluded.has_quiz, pass_mark = excluded.pass_mark,
    content = excluded.content,
    published = coalesce((SELECT r.published FROM r WHERE r.id = excluded.course_id),
                         c.published),
    updated_at = now()
RETURNING course_id
