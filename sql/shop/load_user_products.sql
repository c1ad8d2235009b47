-- Upserts the staged units by id (primary key).
INSERT INTO shop_user_products (id, user_id, product_id, order_id, assigned_at, channel)
SELECT id, user_id, product_id, order_id, assigned_at, channel
FROM staged_user_products ORDER BY ord
ON CONFLICT (id) DO UPDATE
SET user_id = excluded.user_id, product_id = excluded.product_id, order_id = excluded.order_id,
    assigned_at = excluded.assigned_at, channel = excluded.channel
