-- The first staged order (ord, field, message) that repeats an earlier one's order_id, or no
-- row.
SELECT ord, 'order_id' AS field, format('duplicate order_id %s in this section', order_id) AS message
FROM (SELECT ord, order_id, row_number() OVER (PARTITION BY order_id ORDER BY ord) AS seen
      FROM staged_orders) o
WHERE seen > 1
ORDER BY ord
LIMIT 1
