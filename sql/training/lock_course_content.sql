-- The content of course $1 (null without lessons), locked against a concurrent save of the
-- course while a translation of it is checked and written; no row for an unknown course.
-- Served by courses' primary key.
SELECT content FROM courses WHERE course_id = $1 FOR SHARE
