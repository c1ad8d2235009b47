-- Webhooks (docs/webhooks.md): the endpoints the training team adds on /admin/webhooks, and one
-- delivery a subscribed endpoint per event, written in the transaction of the change that
-- made the event and sent by any web process (app/webhooks).
-- depends: 0017.idempotency

CREATE TABLE webhook_endpoints (
    endpoint_id  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    url          text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
    events       text[] NOT NULL CHECK (cardinality(events) > 0),
    description  text NOT NULL DEFAULT '',
    -- `whsec_<base64>`: the receiver verifies signatures with it; shown once when added.
    secret       text NOT NULL,
    enabled      boolean NOT NULL DEFAULT true,
    -- Why it was disabled when not by hand (a receiver that answered 410).
    disabled_why text,
    created_at   timestamptz(3) NOT NULL DEFAULT now()
);

-- Who takes each event type now: every statement that makes events joins it, so an event
-- nobody subscribes to is not stored at all (an endpoint gets the events made after it was
-- added or enabled, never earlier ones).
CREATE VIEW webhook_subscriptions AS
SELECT endpoint_id, unnest(events) AS event_type
FROM webhook_endpoints
WHERE enabled;

-- One event for one endpoint: its body's `type`, `timestamp` (created_at) and `data`, and the
-- state of its delivery. `webhook-id` is `msg_<delivery_id>`, the same on every attempt.
-- A bulk change writes 250,000 rows in its own statement, so each row costs as little as it
-- can: no foreign key (its check is a lookup and a lock per row, more than doubling the
-- write; an endpoint's delete removes its deliveries in the same statement), and two indexes
-- written per row, the key and what is due.
CREATE TABLE webhook_deliveries (
    delivery_id     bigint GENERATED ALWAYS AS IDENTITY,
    endpoint_id     uuid NOT NULL,
    event_type      text NOT NULL,
    data            jsonb NOT NULL,
    created_at      timestamptz(3) NOT NULL DEFAULT now(),
    status          text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts        smallint NOT NULL DEFAULT 0,
    next_attempt_at timestamptz(3) NOT NULL DEFAULT now(),
    -- Set while a process sends it (a claim); a process that died leaves its claims, which
    -- count as in flight until this time passes and are then claimed again.
    leased_until    timestamptz(3),
    last_attempt_at timestamptz(3),
    -- The last answer's HTTP status (NULL: none, e.g. a timeout) and at most 1 kB of its
    -- body, or the error that stopped the request.
    last_status     smallint,
    last_answer     text CHECK (octet_length(last_answer) <= 1024),
    -- An endpoint's deliveries, newest first (its page, and its delete).
    PRIMARY KEY (endpoint_id, delivery_id)
);
-- What is due, per endpoint, oldest first (the claim).
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_attempt_at)
    WHERE status = 'pending';
-- The requests in flight per endpoint (at most 10): only claimed rows are in it.
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id)
    WHERE leased_until IS NOT NULL;
