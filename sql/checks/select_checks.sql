-- Every check matching the filters ($1 recorder_id, $2 rider_id, $3 first and $4 last local
-- date, $5 id_validation, $6 license_plate; NULL = no filter), ordered by ID, one row a check:
-- the check's JSON text, ready to be joined into the response array.
-- Run with plan_cache_mode = force_custom_plan, so that the absent filters fold away and each
-- present one reaches its index: checks_recorder / checks_rider (already in ID order),
-- checks_check_date (range on the local date), checks_id_validation_failed /
-- checks_license_plate_failed (false only); no filter: checks_pkey, in ID order, fast start.
-- A date range wider than a few days is read along checks_pkey with the dates as a filter
-- (a cursor is planned for its first rows): no sort of rendered text, first rows early.
-- Rendering by concatenation is ~1.5x faster than json_build_object and leaves no spaces;
-- `answers` and `reported_items` are stored JSON text and are spliced in unchanged.
SELECT '{"ID":' || id
    || ',"Rider_ID":' || rider_id
    || ',"Rider_name":' || to_json(rider_name)
    || ',"3PL":' || to_json(third_party_logistics)
    || ',"Recorder_ID":' || recorder_id
    || ',"Check_date":"' || to_char(check_date, 'YYYY-MM-DD HH24:MI:SS')
    || '","ID_validation":' || id_validation::int
    || ',"License_plate":' || license_plate::int
    || ',"Reported_item":' || coalesce(reported_items::text, 'null')
    || ',"Questioner":' || answers
    || ',"Country_code":' || coalesce(to_json(country_code)::text, 'null')
    || ',"Timezone":' || coalesce(to_json(timezone)::text, 'null')
    || '}'
FROM checks
WHERE ($1::bigint IS NULL OR recorder_id = $1)
  AND ($2::bigint IS NULL OR rider_id = $2)
  AND ($3::date IS NULL OR check_date >= $3::date)
  AND ($4::date IS NULL OR check_date < $4::date + 1)
  AND ($5::boolean IS NULL OR id_validation = $5)
  AND ($6::boolean IS NULL OR license_plate = $6)
ORDER BY id
