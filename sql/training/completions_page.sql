-- A page of the completions feed: passed records after the record key ($1 completed_at,
-- $2 rider_id, $3 course_id), oldest first, $4 records at most. The key is the previous
-- page's last record, or (a time, '', the nil UUID), which no record equals.
-- Returns the completion record fields, times as text (YYYY-MM-DDTHH:MM:SS.sssZ).
-- Served by course_results_feed (a range scan from the key: every page costs the same).
-- Market and title are scalar subqueries, one primary-key lookup per record returned: as
-- joins, the planner hashed all 300,000 riders for the last pages (2.4 times the first).
SELECT cr.rider_id,
       (SELECT r.market FROM riders r WHERE r.rider_id = cr.rider_id) AS market,
       cr.course_id,
       (SELECT c.title FROM courses c WHERE c.course_id = cr.course_id) AS title,
       cr.language,
       to_char(cr.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS started_at,
       to_char(cr.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS completed_at,
       cr.score, cr.attempts, cr.time_spent_seconds, cr.proof_code
FROM course_results cr
WHERE cr.completed_at IS NOT NULL  -- lets the planner use the partial index
  AND (cr.completed_at, cr.rider_id, cr.course_id) > ($1, $2, $3)
ORDER BY cr.completed_at, cr.rider_id, cr.course_id
LIMIT $4
