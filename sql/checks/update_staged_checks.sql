-- Updates the checks staged in staged_checks (all of which exist: the load locked checks and
-- looked them up); returns nothing. A check whose values are unchanged is not rewritten
-- (json has no equality, so its text is compared). Joins staged_checks to checks_pkey.
UPDATE checks AS c
SET rider_id = s.rider_id,
    rider_name = s.rider_name,
    third_party_logistics = s.third_party_logistics,
    recorder_id = s.recorder_id,
    check_date = s.check_date,
    timezone = s.timezone,
    country_code = s.country_code,
    id_validation = s.id_validation,
    license_plate = s.license_plate,
    reported_items = s.reported_items,
    answers = s.answers
FROM staged_checks AS s
WHERE c.id = s.id
  AND (c.rider_id, c.rider_name, c.third_party_logistics, c.recorder_id, c.check_date,
       c.timezone, c.country_code, c.id_validation, c.license_plate, c.reported_items::text,
       c.answers::text)
      IS DISTINCT FROM (s.rider_id, s.rider_name, s.third_party_logistics, s.recorder_id,
                        s.check_date, s.timezone, s.country_code, s.id_validation,
                        s.license_plate, s.reported_items::text, s.answers::text)
