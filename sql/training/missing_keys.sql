-- Which of the given rider IDs ($1) and course IDs ($2) do not exist, to name the first bad
-- record of a load. Returns kind ('rider' or 'course') and key. Served by the primary keys.
SELECT 'rider' AS kind, id AS key FROM unnest($1::text[]) AS id
WHERE NOT EXISTS (SELECT FROM riders WHERE rider_id = id)
UNION ALL
SELECT 'course', id::text FROM unnest($2::uuid[]) AS id
WHERE NOT EXISTS (SELECT FROM courses WHERE course_id = id)
