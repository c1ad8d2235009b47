-- The first staged user (ord, field, message) that repeats an earlier one's id, else email,
-- else ridehail_id, else agency_id (absent values repeat nothing), or no row.
SELECT ord, field, message FROM (
    SELECT 1 AS rank, ord, 'id' AS field, format('duplicate id %s in this section', id) AS message,
           row_number() OVER (PARTITION BY id ORDER BY ord) AS seen
    FROM staged_users
    UNION ALL
    SELECT 2, ord, 'email', format('duplicate email %L in this section', email),
           row_number() OVER (PARTITION BY email ORDER BY ord)
    FROM staged_users
    UNION ALL
    SELECT 3, ord, 'ridehail_id', format('duplicate ridehail_id %L in this section', ridehail_id),
           row_number() OVER (PARTITION BY ridehail_id ORDER BY ord)
    FROM staged_users WHERE ridehail_id IS NOT NULL
    UNION ALL
    SELECT 4, ord, 'agency_id', format('duplicate agency_id %L in this section', agency_id),
           row_number() OVER (PARTITION BY agency_id ORDER BY ord)
    FROM staged_users WHERE agency_id IS NOT NULL
) repeated
WHERE seen > 1
ORDER BY rank, ord
LIMIT 1
