-- The number of riders the riders export holds ($1–$9: the riders list's filters, see
-- admin_matching_riders; $10: whether any filter is given). Without filters: a count of riders'
-- primary key; with them, a scan of riders.
SELECT count(*)
FROM riders r
WHERE NOT $10::boolean
   OR r.rider_id IN (SELECT m.rider_id
                   FROM admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8, $9) m)
