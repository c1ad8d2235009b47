-- The first staged completion (ord, field, message) naming no rider or no course (the rider
-- named first), or no row. Served by the primary keys of riders and courses.
SELECT c.ord, CASE WHEN r.rider_id IS NULL THEN 'riderId' ELSE 'courseId' END AS field,
       CASE WHEN r.rider_id IS NULL THEN format('unknown rider %L', c.rider_id)
            ELSE format('unknown course %s', c.course_id) END AS message
FROM staged_completions c
LEFT JOIN riders r ON r.rider_id = c.rider_id
LEFT JOIN courses k ON k.course_id = c.course_id
WHERE r.rider_id IS NULL OR k.course_id IS NULL
ORDER BY c.ord
LIMIT 1
