-- The first staged partner kit entry (ord, field, message) that repeats an earlier one's
-- partner and product, or no row.
SELECT ord, 'product_id' AS field,
       format('duplicate entry (%L, %s) in this section', partner_name, product_id) AS message
FROM (SELECT ord, partner_name, product_id,
             row_number() OVER (PARTITION BY partner_name, product_id ORDER BY ord) AS seen
      FROM staged_partner_kits) k
WHERE seen > 1
ORDER BY ord
LIMIT 1
