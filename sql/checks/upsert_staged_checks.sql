-- Inserts or updates the checks staged by COPY in staged_checks (one row a check;
-- `reported_items` and `answers` JSON text, answers already rendered as the Questioner array);
-- returns nothing. A check whose values are unchanged is not rewritten (json has no equality,
-- so its text is compared). Conflicts on checks_pkey.
INSERT INTO checks AS c (id, rider_id, rider_name, third_party_logistics, recorder_id,
                         check_date, timezone, country_code, id_validation, license_plate,
                         reported_items, answers)
SELECT id, rider_id, rider_name, third_party_logistics, recorder_id, check_date, timezone,
       country_code, id_validation, license_plate, reported_items::json, answers::json
FROM staged_checks
ON CONFLICT (id) DO UPDATE
SET rider_id = excluded.rider_id,
    rider_name = excluded.rider_name,
    third_party_logistics = excluded.third_party_logistics,
    recorder_id = excluded.recorder_id,
    check_date = excluded.check_date,
    timezone = excluded.timezone,
    country_code = excluded.country_code,
    id_validation = excluded.id_validation,
    license_plate = excluded.license_plate,
    reported_items = excluded.reported_items,
    answers = excluded.answers
WHERE (c.rider_id, c.rider_name, c.third_party_logistics, c.recorder_id, c.check_date,
       c.timezone, c.country_code, c.id_validation, c.license_plate, c.reported_items::text,
       c.answers::text)
      IS DISTINCT FROM (excluded.rider_id, excluded.rider_name, excluded.third_party_logistics,
                        excluded.recorder_id, excluded.check_date, excluded.timezone,
                        excluded.country_code, excluded.id_validation, excluded.license_plate,
                        excluded.reported_items::text, excluded.answers::text)
