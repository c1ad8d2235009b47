-- The first staged partner (ord, field, message) that repeats an earlier one's name, or no row.
-- Reads staged_partners whole (no index: sorted).
SELECT ord, 'name' AS field, format('duplicate name %L in this section', name) AS message
FROM (SELECT ord, name, row_number() OVER (PARTITION BY name ORDER BY ord) AS seen
      FROM staged_partners) p
WHERE seen > 1
ORDER BY ord
LIMIT 1
