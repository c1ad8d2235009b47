-- Records a view of course $2 by rider $1, the content shown in language $3, lesson $4 opened
-- (0: another page of the course), when the rider may open the course: it is published and
-- on the path of one of the rider's assignments. The first view creates the record
-- (startedAt, language); a later one adds the gap since the previous view, at most 5 minutes,
-- to the time spent, moves the furthest lesson on and, until the first pass, keeps the
-- language current. The record stays locked until the transaction ends (a quiz submission
-- reads and writes it under that lock). Returns the record, or no row when the rider may not
-- open the course, or when the course the caller shows is no longer current: $5 and $7, the
-- versions of the course and of its translation into $6 that read_course.sql returned, no
-- longer match (none to check when $5 is null). Served by the primary keys of courses,
-- course_translations, path_courses and course_results and the rider_id prefix of
-- assignments_once.
INSERT INTO course_results AS cr (rider_id, course_id, language, started_at, last_viewed_at,
                                  furthest_lesson)
SELECT $1, c.course_id, $3, now(), now(), $4
FROM courses c
WHERE c.course_id = $2
  AND c.published
  AND EXISTS (SELECT FROM assignments a
              JOIN path_courses pc ON pc.path_id = a.path_id AND pc.course_id = c.course_id
              WHERE a.rider_id = $1)
  AND ($5::xid IS NULL
       OR c.xmin = $5::xid
          AND (SELECT t.xmin FROM course_translations t
               WHERE t.course_id = c.course_id AND t.language = $6) IS NOT DISTINCT FROM $7::xid)
ON CONFLICT (rider_id, course_id) DO UPDATE SET
    time_spent_seconds = cr.time_spent_seconds + coalesce(
        least(300, greatest(0, floor(extract(epoch FROM now() - cr.last_viewed_at))))::int, 0),
    last_viewed_at = now(),
    furthest_lesson = greatest(cr.furthest_lesson, excluded.furthest_lesson),
    language = CASE WHEN cr.completed_at IS NULL THEN excluded.language ELSE cr.language END
RETURNING cr.rider_id, cr.course_id, cr.language, cr.started_at, cr.completed_at, cr.score,
          cr.attempts, cr.time_spent_seconds, cr.proof_code, cr.furthest_lesson
