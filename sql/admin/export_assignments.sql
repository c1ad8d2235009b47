-- The assignments export, one part: rows $10 + 1 onward, at most $11, of the assignments of
-- the riders that match the riders list's filters ($1–$8, see admin_matching_riders; $9:
-- whether any filter is given), by rider, path and completion. Returns the columns of
-- DESIGN §8 as text, free text formula-guarded (admin_csv_guard). Read through a cursor:
-- a scan of assignments joined to paths by hash, then a sort (or assignments_once in order).
SELECT admin_csv_guard(a.rider_id), a.path_id::text, admin_csv_guard(p.name), a.why,
       admin_utc_text(a.assigned_at), admin_utc_text(a.deadline),
       admin_utc_text(a.completed_at)
FROM assignments a
LEFT JOIN paths p ON p.path_id = a.path_id
WHERE NOT $9::boolean
   OR a.rider_id IN (SELECT admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8))
ORDER BY a.rider_id, a.path_id, a.completed_at
OFFSET $10
LIMIT $11
