-- Upserts user kit entries (primary key).
INSERT INTO shop_user_kits (user_id, product_id, quantity, mandatory)
SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::integer[], $4::boolean[])
ON CONFLICT (user_id, product_id) DO UPDATE
SET quantity = excluded.quantity, mandatory = excluded.mandatory
