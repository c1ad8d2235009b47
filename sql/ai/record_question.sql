-- Counts rider $1's question when fewer than $2 were asked in the last hour (and forgets the
-- older ones). Returns `wait`: null when counted, else the interval until the next question
-- is possible. Served by assistant_questions_recent.
WITH forgotten AS (
    DELETE FROM assistant_questions WHERE rider_id = $1 AND asked_at <= now() - interval '1 hour'
), recent AS (
    SELECT asked_at FROM assistant_questions
    WHERE rider_id = $1 AND asked_at > now() - interval '1 hour'
    ORDER BY asked_at DESC
), counted AS (
    INSERT INTO assistant_questions (rider_id)
    SELECT $1 WHERE (SELECT count(*) FROM recent) < $2
    RETURNING asked_at
)
SELECT CASE WHEN EXISTS (SELECT FROM counted) THEN NULL
            -- The question that leaves the window first frees the next one.
            ELSE (SELECT asked_at FROM recent OFFSET $2 - 1 LIMIT 1) + interval '1 hour' - now()
       END AS wait
