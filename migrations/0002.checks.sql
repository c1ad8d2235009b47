-- Family A: the questionnaire catalogue and the ambassador checks.

-- One row a question; a question belongs to exactly one country. `answers` holds the options
-- ([{name, name_ar, score, jump, skip}]) as they are served: they are read whole, never queried.
CREATE TABLE questions (
    question_id   bigint PRIMARY KEY,
    question      text   NOT NULL,
    question_type text   NOT NULL,
    country_id    bigint NOT NULL,
    category      text   NOT NULL,
    image_url     text,
    answers       jsonb  NOT NULL
);
CREATE INDEX questions_country ON questions (country_id, question_id);

-- One row a check. `check_date` is the local wall-clock time as recorded (no zone: the
-- `timezone` label, e.g. 'UTC+04:00', travels with it), so date filters compare it directly.
--
-- `answers` is the check's `Questioner` array, rendered once at write time with the question
-- text, category and image of that moment: a check's answers never change, and the read path
-- splices this text into the check's JSON as it is. Measured on 1,000,000 checks x 10 answers
-- (PostgreSQL time to produce every check's JSON text in ID order, EXPLAIN ANALYZE SERIALIZE):
--   snapshot column here (json, ~2.2 kB a check):          2.3 s, table 640 MB
--   child table check_answers + json_agg per check:          16.4 s (merge join of 10M rows) or
--                                                           17.7 s (subquery per check),
--                                                           answers table alone 1.8 GB
-- The child table alone would cap the stream near 60,000 checks/s before Python does any work.
-- `json` (not jsonb) keeps the text as written, so output is a copy, not a re-serialisation.
CREATE TABLE checks (
    id                    bigint       PRIMARY KEY,
    rider_id              bigint       NOT NULL,
    rider_name            text         NOT NULL,
    third_party_logistics text         NOT NULL,
    recorder_id           bigint       NOT NULL,
    check_date            timestamp(0) NOT NULL,
    timezone              text,
    country_code          text,
    id_validation         boolean      NOT NULL,
    license_plate         boolean      NOT NULL,
    reported_items        json,
    answers               json         NOT NULL
);
-- Each filter has its index; (x, id) hands rows over already in ID order.
CREATE INDEX checks_recorder ON checks (recorder_id, id);
CREATE INDEX checks_rider ON checks (rider_id, id);
CREATE INDEX checks_check_date ON checks (check_date);
-- A passed validation is the norm and matches most checks, where the primary key scan is the
-- right plan anyway; a failed one is the rare case people look for, so only it is indexed.
CREATE INDEX checks_id_validation_failed ON checks (id) WHERE NOT id_validation;
CREATE INDEX checks_license_plate_failed ON checks (id) WHERE NOT license_plate;
