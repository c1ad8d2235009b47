-- The audit log (docs/audit.md): every change a person makes through the panel
-- or the command line, written in the change's own transaction, so a change and its event are
-- committed or lost together. Append-only: the service never updates a row, and only
-- housekeeping deletes the old ones.
-- depends: 0035.admin-roles

CREATE TABLE audit_events (
    event_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at       timestamptz(3) NOT NULL DEFAULT now(),
    -- The admin's email, or 'cli' for the command line.
    actor    text NOT NULL CHECK (length(actor) BETWEEN 1 AND 254),
    -- The client's address (the panel), or null (the command line).
    address  text CHECK (length(address) <= 64),
    action   text NOT NULL CHECK (action ~ '^[a-z_]+\.[a-z_]+$'),
    target   text CHECK (length(target) <= 200),
    summary  text NOT NULL DEFAULT '' CHECK (length(summary) <= 1000)
);
-- The audit page lists newest first, keyset-paged on (at, event_id), with optional filters
-- on actor and action; housekeeping deletes by age from the oldest end.
CREATE INDEX audit_events_at ON audit_events (at DESC, event_id DESC);
CREATE INDEX audit_events_actor ON audit_events (actor, at DESC, event_id DESC);
CREATE INDEX audit_events_action ON audit_events (action, at DESC, event_id DESC);
