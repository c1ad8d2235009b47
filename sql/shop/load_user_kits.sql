-- Upserts the staged user kit entries (primary key).
INSERT INTO shop_user_kits (user_id, product_id, quantity, mandatory)
SELECT user_id, product_id, quantity, mandatory FROM staged_user_kits ORDER BY ord
ON CONFLICT (user_id, product_id) DO UPDATE
SET quantity = excluded.quantity, mandatory = excluded.mandatory
