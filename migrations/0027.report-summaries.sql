-- The reports' summaries (docs/reports.md): counts by the rider's market and city, recounted
-- whole by the `reports` job (jobs/reports.py, every 10 minutes) in one transaction, so a
-- page reads a few thousand rows instead of scanning 1.5 M assignments and 2 M completions,
-- and always a consistent set. report_refresh holds when they were counted (the pages show
-- it). No keys: the job replaces every row at once and the pages sum over filters; the
-- tables are small (bench/README.md).
-- depends: 0026.quiz-answers

CREATE TABLE report_refresh (
    only_row     boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    refreshed_at timestamptz(3) NOT NULL
);

-- Assignments by path, rider market and city, UTC day assigned, and days to complete in
-- tenths (NULL: open); overdue: open past the deadline when counted.
CREATE TABLE report_assignments (
    path_id     uuid NOT NULL,
    market      text NOT NULL,
    city        text,
    assigned_on date NOT NULL,
    tenths      integer,
    assigned    integer NOT NULL,
    completed   integer NOT NULL,
    overdue     integer NOT NULL
);

-- Course completions by rider market and city and ISO week (its Monday, UTC).
CREATE TABLE report_completions (
    market      text NOT NULL,
    city        text,
    week        date NOT NULL,
    completions integer NOT NULL
);

-- Recorded quiz answers by course, rider market and city, question, first attempt or not,
-- and right or not.
CREATE TABLE report_quiz_answers (
    course_id uuid NOT NULL,
    market    text NOT NULL,
    city      text,
    question  smallint NOT NULL,
    first     boolean NOT NULL,
    correct   boolean NOT NULL,
    answered  integer NOT NULL
);
CREATE INDEX report_quiz_answers_course ON report_quiz_answers (course_id);

-- Options chosen in wrong answers, by course, market, city, question and option.
CREATE TABLE report_quiz_wrong_options (
    course_id uuid NOT NULL,
    market    text NOT NULL,
    city      text,
    question  smallint NOT NULL,
    option    smallint NOT NULL,
    chosen    integer NOT NULL
);
CREATE INDEX report_quiz_wrong_options_course ON report_quiz_wrong_options (course_id);

-- The distributions: kind 'attempts' (bucket: the attempt a rider first passed at, 5 for 5
-- or more; count: riders) and 'score' (bucket: score tenth, 0–9; count: attempts).
CREATE TABLE report_quiz_attempts (
    course_id uuid NOT NULL,
    market    text NOT NULL,
    city      text,
    kind      text NOT NULL CHECK (kind IN ('attempts', 'score')),
    bucket    integer NOT NULL,
    count     integer NOT NULL
);
CREATE INDEX report_quiz_attempts_course ON report_quiz_attempts (course_id);
