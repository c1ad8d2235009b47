-- Assignment events stored as the assignment's facts, not as JSON (docs/webhooks.md): a bulk assign
-- writes 250,000 events in its own statement, and building 250,000 jsonb objects (their
-- times printed with to_char) then storing them took about as long as the assignments
-- themselves. The facts of an assignment do not change after its event, so the data object
-- is built from them when the event is sent (webhook_delivery_data), as of the event.
-- Events made in Python (a completion's feed record, flag.created, a test event) keep `data`.
-- depends: 0027.report-summaries

ALTER TABLE webhook_deliveries
    ALTER COLUMN data DROP NOT NULL,
    ADD COLUMN rider_id     text,
    ADD COLUMN path_id      uuid,
    ADD COLUMN deadline     timestamptz(3),
    ADD COLUMN completed_at timestamptz(3),
    ADD COLUMN why          text,
    ADD CONSTRAINT webhook_deliveries_data_or_facts CHECK ((data IS NULL) = (rider_id IS NOT NULL));

-- Its statements write facts now (repeatable scripts no longer define it).
DROP FUNCTION IF EXISTS training_assignment_events(boolean, text, uuid, timestamptz,
                                                   timestamptz, text);
