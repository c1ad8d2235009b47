-- Creates (empty) the transaction's staging table of a file's completions, filled by COPY.
-- Temporary, dropped at commit, without index: each statement reads it whole.
CREATE TEMPORARY TABLE staged_completions (
    ord integer, rider_id text, course_id uuid, language text, started_at timestamptz,
    completed_at timestamptz, score double precision, attempts integer, time_spent_seconds integer
) ON COMMIT DROP
