-- Turns the assignment events off until the transaction ends (SET LOCAL, safe behind a pooler
-- in transaction mode): the trigger on assignments (webhook_assignment_events) then writes
-- none. For load-data. Returns the setting's new value; touches no table.
SELECT set_config('webhooks.assignment_events', 'off', true)
