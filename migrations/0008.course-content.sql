-- Course content (the course document, docs/api-training.md) and its translations.
--
-- The document lives in one jsonb column, not in lesson/question tables: a course is always
-- read whole (the rider's player, the admin editor, the AI prompts) and written whole (the
-- editor's save, a generation, a load-data record), and nothing queries single lessons or
-- questions across courses. So reading a course is one row (one query with its translation,
-- below) and saving one is one UPDATE; the service validates the document before it is
-- stored (app/training/course_document.py).
--
-- content: NULL for courses that exist from before (or are loaded without lessons): they
-- keep title/has_quiz/pass_mark as loaded, and their results come from load-data and the API.
-- Otherwise { "lessons": [{ "title", "body" }], "quiz": [{ "question", "options", "correct" }] }
-- (the document's title and pass_mark are the columns of the same names).
--
-- published: riders can open the course in the rider app. Courses that exist today were
-- already assigned through paths, so they stay published (nothing changes for them); a course
-- created from now on by the editor or by generation starts unpublished (column default).
-- depends: 0004.training

ALTER TABLE courses
    ADD COLUMN content    jsonb,
    ADD COLUMN published  boolean NOT NULL DEFAULT true,
    ADD COLUMN updated_at timestamptz(3) NOT NULL DEFAULT now(),
    -- The completions feed and the player read has_quiz and pass_mark: with content they are
    -- the document's (a quiz of at least one question; pass_mark set), never out of step.
    -- (IS TRUE: a content that is not an object of two arrays fails, instead of passing as
    -- NULL.)
    ADD CONSTRAINT courses_content_consistent CHECK (
        content IS NULL
        OR (jsonb_typeof(content -> 'lessons') = 'array'
            AND jsonb_array_length(content -> 'lessons') >= 1
            AND jsonb_typeof(content -> 'quiz') = 'array'
            AND has_quiz = (jsonb_array_length(content -> 'quiz') > 0)
            AND pass_mark IS NOT NULL) IS TRUE);
ALTER TABLE courses ALTER COLUMN published SET DEFAULT false;

-- One translation per course and language: the translated document ({ title, lessons,
-- quiz: [{ question, options }] }, in the course's shape; the correct answers and pass mark
-- are the course's). 'machine' until an admin marks it 'reviewed'. Read with its course in
-- one query through the primary key.
CREATE TABLE course_translations (
    course_id  uuid    NOT NULL REFERENCES courses ON DELETE CASCADE,
    language   text    NOT NULL CHECK (language IN ('ar','ur','ku')),
    document   jsonb   NOT NULL CHECK (jsonb_typeof(document) = 'object'),
    state      text    NOT NULL DEFAULT 'machine' CHECK (state IN ('machine','reviewed')),
    updated_at timestamptz(3) NOT NULL DEFAULT now(),
    PRIMARY KEY (course_id, language)
);
