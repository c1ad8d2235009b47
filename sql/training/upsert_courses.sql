-- load-data `courses`: creates or updates courses from a JSON array of
-- { id, title, has_quiz, pass_mark }. Returns nothing. Served by courses' primary key.
INSERT INTO courses (course_id, title, has_quiz, pass_mark)
SELECT id, title, has_quiz, pass_mark
FROM jsonb_to_recordset($1::jsonb) AS c(id uuid, title text, has_quiz boolean, pass_mark integer)
ON CONFLICT (course_id) DO UPDATE SET
    title = excluded.title, has_quiz = excluded.has_quiz, pass_mark = excluded.pass_mark
