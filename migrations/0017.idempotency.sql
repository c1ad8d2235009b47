-- Idempotency-Key (docs/webhooks.md): the first request with a key claims it (a committed INSERT …
-- ON CONFLICT DO NOTHING, before its work runs: of two requests at once exactly one runs) and
-- stores its answer; a repeat with the same body gets that answer again for 24 hours.
-- depends: 0016.ai

CREATE TABLE idempotency_keys (
    -- The operation and a fingerprint of the API key that called it ("POST /api/v1/riders
    -- <hex>"): the same key sent to another operation, or with another API key, is another key.
    scope        text        NOT NULL,
    key          text        NOT NULL,
    -- SHA-256 of the request body's bytes: a repeat must send the same bytes.
    body_hash    bytea       NOT NULL,
    claimed_at   timestamptz(3) NOT NULL DEFAULT now(),
    expires_at   timestamptz(3) NOT NULL DEFAULT now() + interval '24 hours',
    -- NULL while the first request runs.
    status       smallint,
    answer       bytea,
    PRIMARY KEY (scope, key),
    CHECK ((status IS NULL) = (answer IS NULL))
);
-- Housekeeping removes expired keys.
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);
