-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- Who may open a course (docs/rider-app.md): course p_course_id, when it is published and on
-- the path of one of rider p_rider_id's assignments, and (p_course_version given) still the
-- version the caller shows: the course's version and that of its translation into p_language
-- are still p_course_version and p_translation_version (NULL: no translation). One row, the
-- course_id, or none. Every statement of the rider app that reads or writes a course record
-- calls it in its FROM; a set-returning SQL function of one SELECT, STABLE, neither STRICT
-- nor with a SET clause, so that the planner inlines it into the statement (no function call
-- on the hot path; tests/rider/test_course_access.py checks it). Served by the primary keys
-- of courses, course_translations and path_courses and the rider_id prefix of
-- assignments_once.
CREATE OR REPLACE FUNCTION rider_open_course(
    p_rider_id text, p_course_id uuid, p_course_version xid, p_language text,
    p_translation_version xid
) RETURNS TABLE (course_id uuid)
LANGUAGE sql STABLE ROWS 1 AS $$
    SELECT c.course_id
    FROM courses c
    WHERE c.course_id = p_course_id
      AND c.published
      AND EXISTS (SELECT FROM assignments a
                  JOIN path_courses pc ON pc.path_id = a.path_id AND pc.course_id = c.course_id
                  WHERE a.rider_id = p_rider_id)
      AND (p_course_version IS NULL
           OR c.xmin = p_course_version
              AND (SELECT t.xmin FROM course_translations t
                   WHERE t.course_id = c.course_id AND t.language = p_language)
                  IS NOT DISTINCT FROM p_translation_version)
$$;
