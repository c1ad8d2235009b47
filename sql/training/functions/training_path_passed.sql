-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- Whether the rider has passed every course of the path (true for a path without courses):
-- an assignment created in that case is completed at once. Served by course_results' key.
CREATE OR REPLACE FUNCTION training_path_passed(p_rider_id text, p_path_id uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT NOT EXISTS (
        SELECT FROM path_courses pc
        WHERE pc.path_id = p_path_id
          AND NOT EXISTS (SELECT FROM course_results cr
                          WHERE cr.rider_id = p_rider_id AND cr.course_id = pc.course_id
                            AND cr.completed_at IS NOT NULL))
$$;
