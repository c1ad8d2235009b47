-- Creates (empty) the transaction's staging table of a file's products, filled by COPY;
-- `partners` is a JSON array of partner names. Temporary, dropped at commit, without index.
CREATE TEMPORARY TABLE staged_products (
    ord integer, id bigint, product_name text, category_name text, is_branded boolean,
    available boolean, deleted boolean, partners text
) ON COMMIT DROP
