-- One course with its content and its translation into $2 (none for 'en' or when missing):
-- one row, or none for an unknown course. content is null for a course without lessons.
-- course_version and translation_version are the two rows' xmin: every write of a row makes a
-- new version of it with a new xmin, so a copy of the course kept by a web process is known
-- to be current when both still match (rider/view_course.sql checks them).
-- Served by the primary keys of courses and course_translations.
SELECT c.course_id, c.title, c.has_quiz, c.pass_mark, c.published, c.content, c.updated_at,
       t.document AS translation, t.state AS translation_state,
       t.updated_at AS translated_at, c.xmin AS course_version, t.xmin AS translation_version
FROM courses c
LEFT JOIN course_translations t ON t.course_id = c.course_id AND t.language = $2
WHERE c.course_id = $1
