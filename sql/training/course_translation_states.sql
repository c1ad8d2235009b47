-- The translations of course $1 by language: language, state, updated_at, and outdated (the
-- course's content was saved after the translation). Served by course_translations' primary
-- key (its prefix course_id) and courses' primary key.
SELECT t.language, t.state, t.updated_at, t.updated_at < c.updated_at AS outdated
FROM course_translations t
JOIN courses c USING (course_id)
WHERE t.course_id = $1
ORDER BY t.language
