-- Upserts the staged products by id (primary key).
INSERT INTO shop_products (id, product_name, category_name, is_branded, available, deleted)
SELECT id, product_name, category_name, is_branded, available, deleted
FROM staged_products ORDER BY ord
ON CONFLICT (id) DO UPDATE
SET product_name = excluded.product_name, category_name = excluded.category_name,
    is_branded = excluded.is_branded, available = excluded.available, deleted = excluded.deleted
