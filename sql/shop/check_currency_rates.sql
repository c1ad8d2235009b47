-- The first staged currency rate (ord, field, message) that repeats an earlier one's currency,
-- or no row.
SELECT ord, 'currency' AS field, format('duplicate currency %L in this section', currency) AS message
FROM (SELECT ord, currency, row_number() OVER (PARTITION BY currency ORDER BY ord) AS seen
      FROM staged_currency_rates) r
WHERE seen > 1
ORDER BY ord
LIMIT 1
