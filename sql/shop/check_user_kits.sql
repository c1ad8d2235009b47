-- The first staged user kit entry (ord, field, message) that repeats an earlier one's user and
-- product, or no row.
SELECT ord, 'product_id' AS field,
       format('duplicate entry (%s, %s) in this section', user_id, product_id) AS message
FROM (SELECT ord, user_id, product_id,
             row_number() OVER (PARTITION BY user_id, product_id ORDER BY ord) AS seen
      FROM staged_user_kits) k
WHERE seen > 1
ORDER BY ord
LIMIT 1
