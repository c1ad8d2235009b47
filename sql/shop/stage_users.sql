-- Creates (empty) the transaction's staging table of a file's users, filled by COPY (email
-- folded already). Temporary, dropped at commit, without index: each statement reads it whole.
CREATE TEMPORARY TABLE staged_users (
    ord integer, id bigint, email text, ridehail_id text, agency_id text, first_name text,
    last_name text, partner_name text, active boolean
) ON COMMIT DROP
