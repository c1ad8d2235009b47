-- The record of rider $1 in course $2 as view_course.sql returns it, without recording a view:
-- for fetches that only keep the rider's offline copy (`X-Offline-Copy: 1`, docs/rider-offline.md), which
-- are not page views (no startedAt, language or time spent). A course not opened yet answers
-- an empty record (no attempts, lesson 0) in language $3. No row when the rider may not open
-- the course or the course shown is no longer current ($4–$6: rider_open_course, as in
-- view_course.sql). Served by rider_open_course's indexes and course_results' primary key.
SELECT $1::text AS rider_id, c.course_id, coalesce(cr.language, $3) AS language,
       cr.started_at, cr.completed_at, cr.score, coalesce(cr.attempts, 0) AS attempts,
       coalesce(cr.time_spent_seconds, 0) AS time_spent_seconds, cr.proof_code,
       coalesce(cr.furthest_lesson, 0) AS furthest_lesson
FROM rider_open_course($1, $2, $4, $5, $6) c
LEFT JOIN course_results cr ON cr.rider_id = $1 AND cr.course_id = c.course_id
