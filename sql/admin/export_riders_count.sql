-- The number of riders the riders export holds ($1–$11: the riders list's filters, see
-- admin_matching_riders; $12: whether any filter is given). Without filters: a count of riders'
-- primary key; with them, a scan of riders.
SELECT count(*)
FROM riders r
WHERE NOT $12::boolean
   OR r.rider_id IN (SELECT m.rider_id
                   FROM admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                                         $11) m)
