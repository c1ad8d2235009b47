-- Removes the partner links of products $1, which load_product_partners then re-creates
-- (primary key shop_product_partners leads with partner_id: the product scan is small).
DELETE FROM shop_product_partners WHERE product_id = ANY ($1::bigint[])
