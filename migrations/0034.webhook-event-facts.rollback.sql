-- The data objects of the events stored as facts, as webhook_delivery_data builds them.
UPDATE webhook_deliveries
SET data = CASE event_type
    WHEN 'assignment.created' THEN jsonb_build_object(
        'riderId', rider_id, 'pathId', path_id,
        'dueDate', to_char(deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'source', CASE why WHEN 'onboarding' THEN 'rule' ELSE why END)
    ELSE jsonb_build_object(
        'riderId', rider_id, 'pathId', path_id,
        'completedAt', to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    END
WHERE data IS NULL;

ALTER TABLE webhook_deliveries
    DROP CONSTRAINT webhook_deliveries_data_or_facts,
    DROP COLUMN rider_id,
    DROP COLUMN path_id,
    DROP COLUMN deadline,
    DROP COLUMN completed_at,
    DROP COLUMN why,
    ALTER COLUMN data SET NOT NULL;
