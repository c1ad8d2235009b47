-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- The assignment events (`assignment.created`, and `assignment.completed` when an assignment
-- is made completed at once or completed later), written once here for every statement that
-- makes or completes assignments: the statement-level triggers of migration 0044 call it
-- after each such statement with its rows (transition tables `new_rows`, and `old_rows` for an
-- update). One row a subscribed endpoint an event, holding the assignment's facts (the data
-- object is built when sent: webhook_event_data), in the transaction of the change.
-- No event work without a subscriber: the first check reads the few endpoints and ends the
-- call, so an assign of 250,000 riders that nobody listens to pays one look-up. Nor for a
-- transaction that said `webhooks.assignment_events` = 'off' (SET LOCAL; load-data, whose
-- records are the service's own data, not news for integrators: docs/webhooks.md).
CREATE OR REPLACE FUNCTION webhook_assignment_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('webhooks.assignment_events', true) = 'off'
       OR NOT EXISTS (SELECT FROM webhook_endpoints
                      WHERE enabled
                        AND events && '{assignment.created,assignment.completed}'::text[]) THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO webhook_deliveries (endpoint_id, event_type, rider_id, path_id, deadline,
                                        completed_at, why)
        SELECT s.endpoint_id, s.event_type, n.rider_id, n.path_id, n.deadline, n.completed_at,
               n.why
        FROM new_rows n
        JOIN webhook_subscriptions s
          ON s.event_type = 'assignment.created'
          OR (s.event_type = 'assignment.completed' AND n.completed_at IS NOT NULL);
    ELSE
        INSERT INTO webhook_deliveries (endpoint_id, event_type, rider_id, path_id, deadline,
                                        completed_at, why)
        SELECT s.endpoint_id, s.event_type, n.rider_id, n.path_id, n.deadline, n.completed_at,
               n.why
        FROM new_rows n
        JOIN old_rows o USING (assignment_id)
        JOIN webhook_subscriptions s ON s.event_type = 'assignment.completed'
        WHERE o.completed_at IS NULL AND n.completed_at IS NOT NULL;
    END IF;
    RETURN NULL;
END
$$;
