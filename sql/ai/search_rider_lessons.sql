-- The $4 lessons of rider $1's assigned, published courses that best match any word of
-- question $2, in language $3 when the course has that translation: course title, lesson
-- title and body, best first. Served by assignments_once (rider_id first), the primary keys of
-- path_courses, courses and course_translations; a rider has few courses, so the lessons are
-- searched as they are read.
WITH q AS (
    SELECT replace(plainto_tsquery('simple', $2)::text, ' & ', ' | ')::tsquery AS query
), lessons AS (
    SELECT coalesce(t.document ->> 'title', c.title) AS course, l.value ->> 'title' AS title,
           l.value ->> 'body' AS body
    FROM (SELECT DISTINCT pc.course_id
          FROM assignments a
          JOIN path_courses pc ON pc.path_id = a.path_id
          WHERE a.rider_id = $1) AS mine
    JOIN courses c ON c.course_id = mine.course_id
    LEFT JOIN course_translations t ON t.course_id = c.course_id AND t.language = $3
    CROSS JOIN LATERAL jsonb_array_elements(coalesce(t.document -> 'lessons',
                                                     c.content -> 'lessons')) AS l(value)
    WHERE c.published AND c.content IS NOT NULL
)
SELECT l.course, l.title, l.body
FROM lessons l, q
WHERE to_tsvector('simple', l.title || ' ' || l.body) @@ q.query
ORDER BY ts_rank(to_tsvector('simple', l.title || ' ' || l.body), q.query) DESC
LIMIT $4
