DELETE FROM sign_in_attempts WHERE kind = 'verify';
ALTER TABLE sign_in_attempts DROP CONSTRAINT sign_in_attempts_kind_check;
ALTER TABLE sign_in_attempts ADD CONSTRAINT sign_in_attempts_kind_check
    CHECK (kind IN ('admin', 'rider'));

ALTER TABLE course_results
    DROP COLUMN furthest_lesson,
    DROP COLUMN last_viewed_at;
