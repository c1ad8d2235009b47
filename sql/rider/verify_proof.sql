-- What the public verification page shows of proof code $1: English course title,
-- completedAt and the rider's name (the page shows first name and last initial only); no
-- row for an unknown code. Served by the unique index on course_results.proof_code and the
-- primary keys of courses and riders.
SELECT c.title AS course, cr.completed_at, r.name
FROM course_results cr
JOIN courses c ON c.course_id = cr.course_id
JOIN riders r ON r.rider_id = cr.rider_id
WHERE cr.proof_code = $1
