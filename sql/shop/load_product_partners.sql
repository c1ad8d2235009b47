-- Links products $1 to the partners named $2 (pairwise; unique index on shop_partners.name).
INSERT INTO shop_product_partners (partner_id, product_id)
SELECT p.id, l.product_id FROM unnest($1::bigint[], $2::text[]) l (product_id, partner_name)
JOIN shop_partners p ON p.name = l.partner_name
ON CONFLICT DO NOTHING
