-- The completions export, one part: rows $10 + 1 onward, at most $11, of the passed records
-- of the riders that match the riders list's filters ($1–$8, see admin_matching_riders; $9:
-- whether any filter is given), in the API's feed order. Returns the API's completion record
-- fields, in its order, as text. Read through a cursor: served by course_results_feed (in
-- order); market and course title are scalar subqueries (primary-key lookups), as in
-- sql/training/completions_page.sql, so that order is kept.
SELECT cr.rider_id,
       (SELECT r.market FROM riders r WHERE r.rider_id = cr.rider_id),
       cr.course_id::text,
       (SELECT c.title FROM courses c WHERE c.course_id = cr.course_id),
       cr.language, admin_utc_text(cr.started_at), admin_utc_text(cr.completed_at),
       cr.score::text, cr.attempts::text, cr.time_spent_seconds::text, cr.proof_code
FROM course_results cr
WHERE cr.completed_at IS NOT NULL
  AND (NOT $9::boolean
       OR cr.rider_id IN (SELECT admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8)))
ORDER BY cr.completed_at, cr.rider_id, cr.course_id
OFFSET $10
LIMIT $11
