-- Creates (empty) the transaction's staging table of a file's partner kit entries, filled by
-- COPY. Temporary, dropped at commit, without index.
CREATE TEMPORARY TABLE staged_partner_kits (
    ord integer, partner_name text, product_id bigint, quantity integer, mandatory boolean
) ON COMMIT DROP
