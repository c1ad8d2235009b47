-- Adds product $2 to user $1's own kit or changes its quantity and mandatory flag (primary key).
INSERT INTO shop_user_kits (user_id, product_id, quantity, mandatory)
VALUES ($1, $2, $3, $4)
ON CONFLICT (user_id, product_id) DO UPDATE
SET quantity = excluded.quantity, mandatory = excluded.mandatory
