-- Upserts products by id (primary key).
INSERT INTO shop_products (id, product_name, category_name, is_branded, available, deleted)
SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::boolean[], $5::boolean[],
                     $6::boolean[])
ON CONFLICT (id) DO UPDATE
SET product_name = excluded.product_name, category_name = excluded.category_name,
    is_branded = excluded.is_branded, available = excluded.available, deleted = excluded.deleted
