-- Every quiz attempt with the options chosen (the item analysis, docs/reports.md), recorded from now
-- on in the quiz POST's transaction; older attempts have none and are not counted. `attempt`
-- is the rider's attempt number in the course (course_results.attempts after this attempt),
-- so attempt 1 is a rider's first. quiz_answers holds one row per question of an attempt:
-- the chosen option indexes and whether they were exactly the correct ones. The item
-- analysis reads one course: both keys lead with course_id.
-- depends: 0021.quiz-attempt-ids

CREATE TABLE quiz_attempts (
    course_id   uuid NOT NULL,
    rider_id    text NOT NULL,
    attempt     integer NOT NULL CHECK (attempt > 0),
    score       double precision NOT NULL CHECK (score BETWEEN 0 AND 100),
    passed      boolean NOT NULL,
    recorded_at timestamptz(3) NOT NULL DEFAULT now(),
    PRIMARY KEY (course_id, rider_id, attempt),
    FOREIGN KEY (rider_id, course_id) REFERENCES course_results (rider_id, course_id)
        ON DELETE CASCADE
);

CREATE TABLE quiz_answers (
    course_id uuid NOT NULL,
    rider_id  text NOT NULL,
    attempt   integer NOT NULL,
    question  smallint NOT NULL CHECK (question >= 0),
    chosen    smallint[] NOT NULL,
    correct   boolean NOT NULL,
    PRIMARY KEY (course_id, question, rider_id, attempt),
    FOREIGN KEY (course_id, rider_id, attempt) REFERENCES quiz_attempts ON DELETE CASCADE
);
