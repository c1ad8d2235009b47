-- Creates (empty) the transaction's staging table of a file's riders, filled by COPY: each
-- row as POST /api/v1/riders reads it (optional fields NULL when not sent, a PIN as its
-- hash). Temporary, dropped at commit, without index: each statement reads it whole.
CREATE TEMPORARY TABLE staged_riders (
    ord integer, rider_id text, name text, market text, phone text, city text,
    vehicle_type text, nationality text, language text, status text, pin_hash text
) ON COMMIT DROP
