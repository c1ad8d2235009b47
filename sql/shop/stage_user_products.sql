-- Creates (empty) the transaction's staging table of a file's units, filled by COPY.
-- Temporary, dropped at commit, without index.
CREATE TEMPORARY TABLE staged_user_products (
    ord integer, id bigint, user_id bigint, product_id bigint, order_id bigint,
    assigned_at timestamptz, channel text
) ON COMMIT DROP
