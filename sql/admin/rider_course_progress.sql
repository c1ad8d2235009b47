-- Rider $1's progress in the courses of every path assigned to them (open or completed), by
-- path name and course position: path_id, path, title, completed_at (NULL: not passed),
-- attempts, score (the course record's), last_attempt (the latest recorded quiz attempt; NULL
-- for none or attempts from before they were recorded). Served by the rider_id prefix of
-- assignments_once, path_courses' and courses' keys, course_results' primary key and
-- quiz_attempts' primary key (course, rider).
SELECT p.path_id, p.name AS path, c.title, cr.completed_at, coalesce(cr.attempts, 0) AS attempts,
       cr.score, last.recorded_at AS last_attempt
FROM (SELECT DISTINCT a.path_id FROM assignments a WHERE a.rider_id = $1) assigned
JOIN paths p ON p.path_id = assigned.path_id
JOIN path_courses pc ON pc.path_id = assigned.path_id
JOIN courses c ON c.course_id = pc.course_id
LEFT JOIN course_results cr ON cr.rider_id = $1 AND cr.course_id = pc.course_id
CROSS JOIN LATERAL (SELECT max(q.recorded_at) AS recorded_at
                    FROM quiz_attempts q
                    WHERE q.course_id = pc.course_id AND q.rider_id = $1) last
ORDER BY p.name, p.path_id, pc.position
