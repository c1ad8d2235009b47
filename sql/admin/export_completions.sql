-- The completions export, one part: rows $10 + 1 onward, at most $11, of the passed records
-- of the riders that match the riders list's filters ($1–$8, see admin_matching_riders; $9:
-- whether any filter is given), in the API's feed order. Returns the API's completion record
-- fields, in its order, as text, free text formula-guarded (admin_csv_guard). Read through a
-- cursor planned for the whole result: a scan of course_results joined to riders and courses
-- by hash, then a sort (measured: 0.9 s for 500,000 records, where the feed index with a
-- lookup of rider and course per record took 2.3 s).
SELECT admin_csv_guard(cr.rider_id), r.market, cr.course_id::text, admin_csv_guard(c.title),
       cr.language, admin_utc_text(cr.started_at), admin_utc_text(cr.completed_at),
       cr.score::text, cr.attempts::text, cr.time_spent_seconds::text, cr.proof_code
FROM course_results cr
JOIN riders r ON r.rider_id = cr.rider_id
LEFT JOIN courses c ON c.course_id = cr.course_id
WHERE cr.completed_at IS NOT NULL
  AND (NOT $9::boolean
       OR cr.rider_id IN (SELECT admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8)))
ORDER BY cr.completed_at, cr.rider_id, cr.course_id
OFFSET $10
LIMIT $11
