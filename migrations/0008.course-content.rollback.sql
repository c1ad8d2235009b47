DROP TABLE course_translations;
ALTER TABLE courses
    DROP CONSTRAINT courses_content_consistent,
    DROP COLUMN updated_at,
    DROP COLUMN published,
    DROP COLUMN content;
