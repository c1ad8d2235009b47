-- The events stored as facts get their data objects, built as when they are sent (the
-- repeatable script webhook_event_data is in place while this migration is).
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_data_or_facts;

UPDATE webhook_deliveries
SET data = webhook_event_data(event_type, data, rider_id, path_id, deadline, completed_at, why)
WHERE data IS NULL;

ALTER TABLE webhook_deliveries
    DROP COLUMN rider_id,
    DROP COLUMN path_id,
    DROP COLUMN deadline,
    DROP COLUMN completed_at,
    DROP COLUMN why,
    ALTER COLUMN data SET NOT NULL;

-- The repeatable script's function goes with the columns it reads (the code before this
-- migration re-creates training_assignment_events at its start).
DROP FUNCTION webhook_event_data(text, jsonb, text, uuid, timestamptz, timestamptz, text);
