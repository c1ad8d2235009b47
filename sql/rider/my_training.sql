-- The rider $1's assignments, open ones first (oldest deadline first), then finished ones
-- (latest first), each with its path's courses in order: title in language $2 when a
-- translation exists (`translated`: else it is the English one), published, whether and with
-- which proof code the rider passed it, its lesson count, whether it has a quiz and the
-- furthest lesson the rider opened (for the "Continue" link).
-- One row per assignment and course (one row with null course for a path without courses).
-- Served by the rider_id prefix of assignments_once and the primary keys of paths,
-- path_courses, courses, course_translations and course_results.
SELECT a.assignment_id, p.name AS path, a.deadline, a.completed_at,
       c.course_id, coalesce(t.document ->> 'title', c.title) AS course,
       t.document ? 'title' AS translated, c.published,
       cr.completed_at IS NOT NULL AS passed, cr.proof_code,
       coalesce(jsonb_array_length(c.content -> 'lessons'), 0) AS lessons,
       coalesce(jsonb_array_length(c.content -> 'quiz'), 0) > 0 AS has_quiz,
       coalesce(cr.furthest_lesson, 0) AS furthest_lesson
FROM assignments a
JOIN paths p ON p.path_id = a.path_id
LEFT JOIN path_courses pc ON pc.path_id = a.path_id
LEFT JOIN courses c ON c.course_id = pc.course_id
LEFT JOIN course_translations t ON t.course_id = c.course_id AND t.language = $2
LEFT JOIN course_results cr ON cr.rider_id = a.rider_id AND cr.course_id = c.course_id
WHERE a.rider_id = $1
ORDER BY a.completed_at IS NOT NULL, a.completed_at DESC, a.deadline, a.assignment_id,
         pc.position
