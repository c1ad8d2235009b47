-- Removes the partner links of the staged products, which load_product_partners then
-- re-creates (primary key shop_product_partners leads with partner_id: the product scan is small).
DELETE FROM shop_product_partners WHERE product_id IN (SELECT id FROM staged_products)
