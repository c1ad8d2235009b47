-- The first $2 checks of rider $1 in ID order, one row a check: the check's JSON text
-- (checks_json, as select_checks.sql renders it).
-- checks_rider (rider_id, id) serves it, already in ID order. No optional filters: the cached
-- generic plan is the right one, so it needs no transaction and runs in one round trip.
SELECT checks_json(
    c.id, c.rider_id, c.rider_name, c.third_party_logistics, c.recorder_id, c.check_date,
    c.timezone, c.country_code, c.id_validation, c.license_plate, c.reported_items, c.answers
)
FROM checks AS c
WHERE c.rider_id = $1
ORDER BY c.id
LIMIT $2
