-- The rider app (issue 11): a rider's progress in a course lives in its course_results row
-- (started_at, language, attempts, best score, time spent are already there; a row with
-- completed_at NULL is a course opened but not passed). Added: when the rider last viewed a
-- page of the course (timeSpentSeconds adds the gaps between views, at most 5 minutes each)
-- and the furthest lesson opened (a course without a quiz is completed once its last lesson
-- was opened; the course page offers "continue" from it). Verification of proof codes is
-- throttled per client address in sign_in_attempts under the kind 'verify'.
-- depends: 0011.link-revocation

ALTER TABLE course_results
    ADD COLUMN last_viewed_at  timestamptz(3),
    ADD COLUMN furthest_lesson integer NOT NULL DEFAULT 0 CHECK (furthest_lesson >= 0);

ALTER TABLE sign_in_attempts DROP CONSTRAINT sign_in_attempts_kind_check;
ALTER TABLE sign_in_attempts ADD CONSTRAINT sign_in_attempts_kind_check
    CHECK (kind IN ('admin', 'rider', 'verify'));
