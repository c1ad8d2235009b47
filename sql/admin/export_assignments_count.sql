-- The number of assignments the assignments export holds ($1–$11 as in
-- export_assignments.sql). Served by assignments_once (an index-only count without filters).
SELECT count(*)
FROM assignments a
WHERE NOT $12::boolean
   OR a.rider_id IN (SELECT m.rider_id
                   FROM admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                                         $11) m)
