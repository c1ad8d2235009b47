-- The panel's one-time reveals (docs/security.md, "Shown once"): a secret the panel shows once
-- (a new API key, a webhook endpoint's signing secret, a rider's new PIN) travels to the page
-- that shows it as the secret XOR a random pad in a cookie of that page's path; this table
-- keeps the pad only, for the session that made it, until that page takes it. Neither half
-- alone is the secret. The API keys' own pad column gives way to it.
-- And the rider import's result, kept with the import, so that its page (the import's POST
-- redirects there) reads it again without importing again (docs/csv.md).
-- depends: 0048.admin-messages

CREATE TABLE admin_reveals (
    reveal_id    uuid  PRIMARY KEY DEFAULT gen_random_uuid(),
    -- Only the session that made it may take it; it ends with that session.
    session_hash bytea NOT NULL REFERENCES web_sessions (id_hash) ON DELETE CASCADE,
    -- What the secret is (app/admin/reveal.py, KINDS) and of what (a key's name, an
    -- endpoint's id, a rider's id).
    kind         text  NOT NULL CHECK (kind IN ('api_key', 'webhook_secret', 'rider_pin')),
    subject      text  NOT NULL,
    -- Null once taken: the row stays until it expires, so a refresh says it was shown.
    pad          bytea,
    created_at   timestamptz(3) NOT NULL DEFAULT now(),
    -- The pad is taken only until then (a few minutes: REVEAL_SECONDS).
    expires_at   timestamptz(3) NOT NULL
);
-- The cascade from an ended session.
CREATE INDEX admin_reveals_session ON admin_reveals (session_hash);
-- Housekeeping removes the expired ones.
CREATE INDEX admin_reveals_expires ON admin_reveals (expires_at);

ALTER TABLE api_keys DROP COLUMN reveal_pad;

ALTER TABLE rider_imports
    ADD COLUMN inserted            integer NOT NULL DEFAULT 0,
    ADD COLUMN updated             integer NOT NULL DEFAULT 0,
    ADD COLUMN enrollments_created integer NOT NULL DEFAULT 0,
    ADD COLUMN rejected            integer NOT NULL DEFAULT 0,
    -- Saved vehicle types that no path's vehicle filter names: {"value": rows, …}.
    ADD COLUMN unmatched_vehicles  jsonb   NOT NULL DEFAULT '{}',
    -- Why the import stopped midway (a database failure), with how far it got; null otherwise.
    ADD COLUMN failure             text;
