-- The passed record with proof code $1 when it belongs to rider $2: course (title in
-- language $3 when translated), completedAt, best score; else no row. Served by the unique
-- index on course_results.proof_code and the primary keys of courses and course_translations.
SELECT cr.course_id, coalesce(t.document ->> 'title', c.title) AS course,
       coalesce(t.document ? 'title', false) AS translated, cr.completed_at,
       cr.score, cr.proof_code
FROM course_results cr
JOIN courses c ON c.course_id = cr.course_id
LEFT JOIN course_translations t ON t.course_id = cr.course_id AND t.language = $3
WHERE cr.proof_code = $1 AND cr.rider_id = $2
