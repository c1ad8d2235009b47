-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- The `data` object of a stored event (docs/webhooks.md#events), for its delivery: the object itself for
-- events made in Python; for the assignment events, built from the assignment's facts stored
-- with the event (they never change after it, so this is the object as of the event):
-- `assignment.created` (source api, rule, flag or admin: an onboarding rule is a rule) and
-- `assignment.completed`. Times as the completions feed prints them. Built here, a few rows
-- a turn of the delivery loop, and not by the statement that made 250,000 assignments.
CREATE OR REPLACE FUNCTION webhook_event_data(
    p_event_type text, p_data jsonb, p_rider_id text, p_path_id uuid, p_deadline timestamptz,
    p_completed_at timestamptz, p_why text
) RETURNS jsonb
LANGUAGE sql STABLE AS $$
    SELECT CASE
        WHEN p_data IS NOT NULL THEN p_data
        WHEN p_event_type = 'assignment.created' THEN jsonb_build_object(
            'riderId', p_rider_id, 'pathId', p_path_id,
            'dueDate', to_char(p_deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'source', CASE p_why WHEN 'onboarding' THEN 'rule' ELSE p_why END)
        WHEN p_event_type = 'assignment.completed' THEN jsonb_build_object(
            'riderId', p_rider_id, 'pathId', p_path_id,
            'completedAt',
            to_char(p_completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    END
$$;
