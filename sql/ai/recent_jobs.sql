-- The $1 newest AI jobs for the jobs page, newest first. Served by ai_jobs_recent.
SELECT j.job_id, j.kind, j.status, j.error, j.language, j.source_name, j.course_id,
       j.started_at, j.finished_at, c.title AS course_title
FROM ai_jobs j
LEFT JOIN courses c ON c.course_id = j.course_id
ORDER BY j.started_at DESC
LIMIT $1
