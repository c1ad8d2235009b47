-- Rules written once (docs/architecture.md#sql-files). The assignment events are written by
-- two statement-level triggers on assignments, not by a copy of the same CTE in every
-- statement that assigns or completes (docs/webhooks.md): the triggers hand the statement's
-- rows (transition tables) to webhook_assignment_events, the repeatable script
-- sql/webhooks/functions/webhook_assignment_events.sql, re-applied after the migrations (the
-- placeholder below only lets the triggers be created before it).
-- depends: 0043.report-item-statistics

CREATE FUNCTION webhook_assignment_events() RETURNS trigger
LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;

CREATE TRIGGER assignments_created AFTER INSERT ON assignments
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION webhook_assignment_events();

CREATE TRIGGER assignments_completed AFTER UPDATE ON assignments
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION webhook_assignment_events();

-- "A rider passed a path" is one set-based function now, training_path_passers (a repeatable
-- script), which every statement calls.
DROP FUNCTION training_path_passed(text, uuid);
