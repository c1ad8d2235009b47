-- The riders export, one part: rows $10 + 1 onward, at most $11 ($1–$8: the riders list's
-- filters, see admin_matching_riders; $9: whether any filter is given), in rider ID order.
-- Returns the columns of DESIGN §8 as text, free text formula-guarded (admin_csv_guard).
-- Read through a cursor: riders' primary key, or a scan and a sort.
SELECT admin_csv_guard(r.rider_id), admin_csv_guard(r.name), r.market,
       admin_csv_guard(r.phone), admin_csv_guard(r.city), admin_csv_guard(r.vehicle_type),
       admin_csv_guard(r.nationality), r.language, r.status, admin_utc_text(r.created_at)
FROM riders r
WHERE NOT $9::boolean
   OR r.rider_id IN (SELECT admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8))
ORDER BY r.rider_id
OFFSET $10
LIMIT $11
