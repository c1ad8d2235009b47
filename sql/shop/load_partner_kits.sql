-- Upserts partner kit entries (primary key; unique index on shop_partners.name).
INSERT INTO shop_partner_kits (partner_id, product_id, quantity, mandatory)
SELECT p.id, k.product_id, k.quantity, k.mandatory
FROM unnest($1::text[], $2::bigint[], $3::integer[], $4::boolean[])
     k (partner_name, product_id, quantity, mandatory)
JOIN shop_partners p ON p.name = k.partner_name
ON CONFLICT (partner_id, product_id) DO UPDATE
SET quantity = excluded.quantity, mandatory = excluded.mandatory
