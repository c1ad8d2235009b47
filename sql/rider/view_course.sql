-- Records a view of course $2 by rider $1, the content shown in language $3, lesson $4 opened
-- (0: another page of the course), when the rider may open the course (rider_open_course:
-- it is published and on the path of one of the rider's assignments). The first view creates the record
-- (startedAt, language); a later one adds the gap since the previous view, at most 5 minutes,
-- to the time spent, moves the furthest lesson on and, until the first pass, keeps the
-- language current. The record stays locked until the transaction ends (a quiz submission
-- reads and writes it under that lock). Returns the record, or no row when the rider may not
-- open the course, or when the course the caller shows is no longer current: $5 and $7, the
-- versions of the course and of its translation into $6 that read_course.sql returned, no
-- longer match (none to check when $5 is null). Served by rider_open_course's indexes and
-- course_results' primary key.
INSERT INTO course_results AS cr (rider_id, course_id, language, started_at, last_viewed_at,
                                  furthest_lesson)
SELECT $1, c.course_id, $3, now(), now(), $4
FROM rider_open_course($1, $2, $5, $6, $7) c
ON CONFLICT (rider_id, course_id) DO UPDATE SET
    time_spent_seconds = cr.time_spent_seconds + coalesce(
        least(300, greatest(0, floor(extract(epoch FROM now() - cr.last_viewed_at))))::int, 0),
    last_viewed_at = now(),
    furthest_lesson = greatest(cr.furthest_lesson, excluded.furthest_lesson),
    language = CASE WHEN cr.completed_at IS NULL THEN excluded.language ELSE cr.language END
RETURNING cr.rider_id, cr.course_id, cr.language, cr.started_at, cr.completed_at, cr.score,
          cr.attempts, cr.time_spent_seconds, cr.proof_code, cr.furthest_lesson
