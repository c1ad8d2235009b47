-- Messages to riders (reminders, flag notifications): every one is recorded, whether the
-- provider accepted it (sent), refused it (failed, with the error text) or it was not sent
-- automatically (logged: messaging not connected or no phone; the training team follows up).
-- depends: 0004.training

CREATE TABLE messages (
    message_id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    rider_id            text   NOT NULL REFERENCES riders,
    kind                text   NOT NULL CHECK (kind IN ('reminder', 'flag')),
    body                text   NOT NULL,
    -- The one-tap link in the body; null when SESSION_SECRET is unset (no link can be signed).
    link                text,
    status              text   NOT NULL CHECK (status IN ('sent', 'failed', 'logged')),
    provider_message_id text,
    error               text,
    created_at          timestamptz(3) NOT NULL DEFAULT now(),
    CHECK ((status = 'failed') = (error IS NOT NULL))
);
-- A rider's messages, newest first (rider page, support questions).
CREATE INDEX messages_rider ON messages (rider_id, created_at);
-- What the training team still has to pass on by hand, and failures to look into.
CREATE INDEX messages_unsent ON messages (created_at) WHERE status <> 'sent';
