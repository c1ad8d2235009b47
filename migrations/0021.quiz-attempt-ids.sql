-- A quiz form's attempt_id, recorded once per rider and course (docs/rider-offline.md): a repeated POST
-- (the service worker sending a kept answer again, a double tap) finds the first result here
-- instead of counting a second attempt. `wrong` holds the indexes of the questions answered
-- wrong, so the repeat shows the same result page.
-- depends: 0016.ai

CREATE TABLE quiz_attempt_ids (
    rider_id text NOT NULL,
    course_id uuid NOT NULL,
    attempt_id uuid NOT NULL,
    score double precision NOT NULL,
    passed boolean NOT NULL,
    wrong integer[] NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (rider_id, course_id, attempt_id),
    FOREIGN KEY (rider_id, course_id) REFERENCES course_results (rider_id, course_id)
        ON DELETE CASCADE
);
