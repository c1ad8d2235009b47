-- The first staged tier (ord, field, message) that repeats an earlier one's ridehail_tier, or
-- no row.
SELECT ord, 'ridehail_tier' AS field,
       format('duplicate ridehail_tier %L in this section', ridehail_tier) AS message
FROM (SELECT ord, ridehail_tier,
             row_number() OVER (PARTITION BY ridehail_tier ORDER BY ord) AS seen
      FROM staged_tiers) t
WHERE seen > 1
ORDER BY ord
LIMIT 1
