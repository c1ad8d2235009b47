-- The riders list (/admin/riders): up to $10 riders after rider ID $1 ('' for the first page),
-- in rider ID order, matching `q` when $2 is given (the rider ID equals $2, or the name is
-- ILIKE $3, or the reversed phone is LIKE $4; $3/$4 NULL when q cannot be a name/phone
-- search) and every filter given ($5 market, $6 status, $7 vehicle type, $8 city,
-- $9 nationality; NULL: any). Run planned per call (app.core.database.planned_per_call), so
-- the filters not given drop out of the plan. Served by riders' primary key (the order and the
-- keyset), riders_name_trgm and riders_phone_suffix (q), riders_city and riders_nationality.
SELECT r.rider_id, r.name, r.market, r.phone, r.city, r.vehicle_type, r.nationality, r.status
FROM riders r
WHERE r.rider_id > $1
  AND ($2::text IS NULL OR r.rider_id IN (
          SELECT rider_id FROM riders WHERE rider_id = $2
          UNION
          SELECT rider_id FROM riders WHERE name ILIKE $3
          UNION
          SELECT rider_id FROM riders WHERE reverse(phone) LIKE $4))
  AND ($5::text IS NULL OR r.market = $5)
  AND ($6::text IS NULL OR r.status = $6)
  AND ($7::text IS NULL OR r.vehicle_type = $7)
  AND ($8::text IS NULL OR r.city = $8)
  AND ($9::text IS NULL OR r.nationality = $9)
ORDER BY r.rider_id
LIMIT $10
