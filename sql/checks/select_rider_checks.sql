-- The first $2 checks of rider $1 in ID order, one row a check: the check's JSON text, rendered
-- exactly as select_checks.sql renders it (tests/checks compare both answers byte for byte).
-- checks_rider (rider_id, id) serves it, already in ID order. No optional filters: the cached
-- generic plan is the right one, so it needs no transaction and runs in one round trip.
SELECT '{"ID":' || c.id
    || ',"Rider_ID":' || c.rider_id
    || ',"Rider_name":' || to_json(c.rider_name)
    || ',"3PL":' || to_json(c.third_party_logistics)
    || ',"Recorder_ID":' || c.recorder_id
    || ',"Check_date":"' || to_char(c.check_date, 'YYYY-MM-DD HH24:MI:SS')
    || '","ID_validation":' || c.id_validation::int
    || ',"License_plate":' || c.license_plate::int
    || ',"Reported_item":' || coalesce(c.reported_items::text, 'null')
    || ',"Questioner":' || c.answers
    || ',"Country_code":' || coalesce(to_json(c.country_code)::text, 'null')
    || ',"Timezone":' || coalesce(to_json(c.timezone)::text, 'null')
    || '}'
FROM checks AS c
WHERE c.rider_id = $1
ORDER BY c.id
LIMIT $2
