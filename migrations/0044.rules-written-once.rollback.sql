-- The code before this migration writes the assignment events in its own statements and
-- asks training_path_passed (its first version here; that code's repeatable script replaces
-- it). The repeatable scripts' functions this migration's code brought go with it.
DROP TRIGGER assignments_completed ON assignments;
DROP TRIGGER assignments_created ON assignments;
DROP FUNCTION webhook_assignment_events();
DROP FUNCTION rider_open_course(text, uuid, xid, text, xid);
DROP FUNCTION training_path_passers(uuid, text[]);

CREATE FUNCTION training_path_passed(p_rider_id text, p_path_id uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT NOT EXISTS (
        SELECT FROM path_courses pc
        WHERE pc.path_id = p_path_id
          AND NOT EXISTS (SELECT FROM course_results cr
                          WHERE cr.rider_id = p_rider_id AND cr.course_id = pc.course_id
                            AND cr.completed_at IS NOT NULL))
$$;
