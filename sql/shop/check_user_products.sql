-- The first staged unit (ord, field, message) that repeats an earlier one's id, or no row.
SELECT ord, 'id' AS field, format('duplicate id %s in this section', id) AS message
FROM (SELECT ord, id, row_number() OVER (PARTITION BY id ORDER BY ord) AS seen
      FROM staged_user_products) p
WHERE seen > 1
ORDER BY ord
LIMIT 1
