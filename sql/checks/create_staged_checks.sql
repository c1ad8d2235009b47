-- Creates (empty) the transaction's staging table of loaded checks, filled by COPY; returns
-- nothing. Temporary and unlogged by nature, dropped at commit; no index: it is read once, whole,
-- by sql/checks/upsert_staged_checks.sql. `reported_items` and `answers` are JSON text.
CREATE TEMPORARY TABLE staged_checks (
    id                    bigint,
    rider_id              bigint,
    rider_name            text,
    third_party_logistics text,
    recorder_id           bigint,
    check_date            timestamp(0),
    timezone              text,
    country_code          text,
    id_validation         boolean,
    license_plate         boolean,
    reported_items        text,
    answers               text
) ON COMMIT DROP
