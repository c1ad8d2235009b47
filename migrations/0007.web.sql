-- The web pages (docs/admin-panel.md): admins of the panel, server-side sessions for admins and
-- riders, failed sign-in attempts for throttling, and the one-time setup link of the first admin.
-- depends: 0004.training

CREATE TABLE admins (
    admin_id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email         text NOT NULL,
    name          text NOT NULL,
    -- argon2id, in argon2's own encoded form (parameters and salt included).
    password_hash text NOT NULL,
    disabled_at   timestamptz(3),
    created_at    timestamptz(3) NOT NULL DEFAULT now()
);
-- Sign-in by email, whatever its case.
CREATE UNIQUE INDEX admins_email ON admins (lower(email));

-- The cookie holds a random id; only its SHA-256 is stored, so the table cannot sign anyone in.
CREATE TABLE web_sessions (
    id_hash      bytea PRIMARY KEY,
    kind         text NOT NULL CHECK (kind IN ('admin', 'rider')),
    admin_id     bigint REFERENCES admins ON DELETE CASCADE,
    rider_id     text REFERENCES riders ON DELETE CASCADE,
    -- The value of this session's forms' csrf_token field (app/core/csrf.py).
    csrf_secret  text NOT NULL,
    language     text,
    created_at   timestamptz(3) NOT NULL DEFAULT now(),
    last_seen_at timestamptz(3) NOT NULL DEFAULT now(),
    expires_at   timestamptz(3) NOT NULL,
    CHECK ((kind = 'admin') = (admin_id IS NOT NULL)),
    CHECK ((kind = 'rider') = (rider_id IS NOT NULL))
);
-- "End every session of this admin / rider" (disable, inactive, PIN change).
CREATE INDEX web_sessions_admin ON web_sessions (admin_id) WHERE admin_id IS NOT NULL;
CREATE INDEX web_sessions_rider ON web_sessions (rider_id) WHERE rider_id IS NOT NULL;

-- Failed sign-ins only; kept for the 15-minute window (older rows of a subject are removed at
-- its next failure).
CREATE TABLE sign_in_attempts (
    kind    text NOT NULL CHECK (kind IN ('admin', 'rider')),
    subject text NOT NULL,
    at      timestamptz(3) NOT NULL DEFAULT now()
);
-- "Failures of this subject in the last 15 minutes".
CREATE INDEX sign_in_attempts_recent ON sign_in_attempts (kind, subject, at);

-- One-time links that let the first visitor create the first admin; stored hashed.
CREATE TABLE admin_setup_tokens (
    token_hash bytea PRIMARY KEY,
    created_at timestamptz(3) NOT NULL DEFAULT now(),
    used_at    timestamptz(3)
);
