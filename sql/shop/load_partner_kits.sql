-- Upserts the staged partner kit entries (primary key; unique index on shop_partners.name).
INSERT INTO shop_partner_kits (partner_id, product_id, quantity, mandatory)
SELECT p.id, k.product_id, k.quantity, k.mandatory
FROM staged_partner_kits k
JOIN shop_partners p ON p.name = k.partner_name
ORDER BY k.ord
ON CONFLICT (partner_id, product_id) DO UPDATE
SET quantity = excluded.quantity, mandatory = excluded.mandatory
