-- Creates (empty) the transaction's staging table of a file's user kit entries, filled by
-- COPY. Temporary, dropped at commit, without index.
CREATE TEMPORARY TABLE staged_user_kits (
    ord integer, user_id bigint, product_id bigint, quantity integer, mandatory boolean
) ON COMMIT DROP
