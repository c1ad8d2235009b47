-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- The webhook events (DESIGN §12) of one assignment: with p_created, `assignment.created`
-- (source api, rule, flag or admin: an onboarding rule is a rule); when it is completed,
-- `assignment.completed` (so an assignment created completed makes both). Times as the
-- completions feed prints them. One SQL SELECT: the planner inlines it into the statement
-- that made the assignments, set-based.
CREATE OR REPLACE FUNCTION training_assignment_events(
    p_created boolean, p_rider_id text, p_path_id uuid, p_deadline timestamptz,
    p_completed_at timestamptz, p_why text
) RETURNS TABLE (event_type text, data jsonb)
LANGUAGE sql STABLE AS $$
    SELECT 'assignment.created',
           jsonb_build_object(
               'riderId', p_rider_id, 'pathId', p_path_id,
               'dueDate', to_char(p_deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'source', CASE p_why WHEN 'onboarding' THEN 'rule' ELSE p_why END)
    WHERE p_created
    UNION ALL
    SELECT 'assignment.completed',
           jsonb_build_object(
               'riderId', p_rider_id, 'pathId', p_path_id,
               'completedAt',
               to_char(p_completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    WHERE p_completed_at IS NOT NULL
$$;
