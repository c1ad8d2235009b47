-- Every check matching the filters ($1 recorder_id, $2 rider_id, $3 first and $4 last local
-- date, $5 id_validation, $6 license_plate; NULL = no filter), ordered by ID, one row a check:
-- the check's JSON text, ready to be joined into the response array.
-- Run with plan_cache_mode = force_custom_plan (sql/core/plan_per_call.sql), so that the absent
-- filters fold away and each present one reaches its index in `matching`: checks_recorder / checks_rider (already in ID
-- order), checks_check_date (range on the local date), checks_id_validation_failed /
-- checks_license_plate_failed (false only); no filter: checks_pkey, in ID order.
-- Only the matching IDs are sorted; each check is then fetched by checks_pkey and rendered, in
-- that order. Sorting rendered rows instead (~2 kB a check) spilled hundreds of MB to disk on
-- wide date ranges and delayed the first byte by seconds; this way a year of 1,000,000 checks
-- starts in < 0.2 s, and the full list streams as fast as a plain checks_pkey scan.
-- Each check is rendered by checks_json (sql/checks/functions/checks_json.sql), inlined.
SELECT (
    SELECT checks_json(
        c.id, c.rider_id, c.rider_name, c.third_party_logistics, c.recorder_id, c.check_date,
        c.timezone, c.country_code, c.id_validation, c.license_plate, c.reported_items, c.answers
    )
    FROM checks AS c
    WHERE c.id = matching.id
)
FROM (
    SELECT id
    FROM checks
    WHERE ($1::bigint IS NULL OR recorder_id = $1)
      AND ($2::bigint IS NULL OR rider_id = $2)
      AND ($3::date IS NULL OR check_date >= $3::date)
      AND ($4::date IS NULL OR check_date < $4::date + 1)
      AND ($5::boolean IS NULL OR id_validation = $5)
      AND ($6::boolean IS NULL OR license_plate = $6)
    ORDER BY id
) AS matching
ORDER BY matching.id
