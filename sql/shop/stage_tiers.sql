-- Creates (empty) the transaction's staging table of a file's loyalty tiers, filled by COPY.
-- Temporary, dropped at commit, without index.
CREATE TEMPORARY TABLE staged_tiers (
    ord integer, ridehail_tier text, name text, discount_percent numeric
) ON COMMIT DROP
