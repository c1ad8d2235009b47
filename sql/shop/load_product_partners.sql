-- Links the staged products to the partners they name (unique index on shop_partners.name).
INSERT INTO shop_product_partners (partner_id, product_id)
SELECT s.id, p.id
FROM staged_products p
CROSS JOIN LATERAL json_array_elements_text(p.partners::json) n (name)
JOIN shop_partners s ON s.name = n.name
ON CONFLICT DO NOTHING
