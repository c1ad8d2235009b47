-- Available, not deleted products ordered by id, only those linked to partner $1 when given
-- (primary keys of shop_products and shop_product_partners, unique shop_partners.name).
SELECT p.id, p.product_name
FROM shop_products p
WHERE p.available AND NOT p.deleted
  AND ($1::text IS NULL OR EXISTS (
        SELECT FROM shop_product_partners pp JOIN shop_partners pa ON pa.id = pp.partner_id
        WHERE pa.name = $1 AND pp.product_id = p.id))
ORDER BY p.id
