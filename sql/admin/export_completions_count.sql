-- The number of completion records the completions export holds ($1–$11 as in
-- export_completions.sql). Served by course_results_feed (an index-only count without
-- filters).
SELECT count(*)
FROM course_results cr
WHERE cr.completed_at IS NOT NULL
  AND (NOT $12::boolean
       OR cr.rider_id IN (SELECT m.rider_id
                   FROM admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                                         $11) m))
