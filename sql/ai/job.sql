-- One job for its page: one row, or none for an unknown id. Served by the primary keys of
-- ai_jobs, admins and courses.
SELECT j.job_id, j.kind, j.status, j.error, j.language, j.source_name, j.course_id,
       j.started_at, j.finished_at, a.name AS admin_name, c.title AS course_title
FROM ai_jobs j
LEFT JOIN admins a ON a.admin_id = j.admin_id
LEFT JOIN courses c ON c.course_id = j.course_id
WHERE j.job_id = $1
