-- The first result of attempt $3 of rider $1 in course $2 (score, passed, wrong question
-- indexes) with the rider's record now (attempts, best score, completedAt, proof code), or no
-- row for an attempt_id never recorded. Served by the primary keys of quiz_attempt_ids and
-- course_results.
SELECT q.score, q.passed, q.wrong, cr.attempts, cr.score AS best_score, cr.completed_at,
       cr.proof_code
FROM quiz_attempt_ids q
JOIN course_results cr USING (rider_id, course_id)
WHERE q.rider_id = $1 AND q.course_id = $2 AND q.attempt_id = $3
