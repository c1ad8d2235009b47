-- Integrators' API keys (docs/security.md, "API keys"): each named, with one or more scopes
-- (the API families it may call) and an optional expiry. Only the key's SHA-256 is kept, with
-- its first 8 characters to tell keys apart; a revoked key stays listed, refused.
-- depends: 0036.audit-events

CREATE TABLE api_keys (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- Unique for good (a revoked key keeps its name): the metrics and the audit log name it.
    name         text   NOT NULL UNIQUE CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
    scopes       text[] NOT NULL
                        CHECK (cardinality(scopes) >= 1
                               AND scopes <@ ARRAY['training', 'checks', 'shop-import',
                                                   'shop-orders']),
    -- A request's key is found by its hash.
    key_hash     bytea  NOT NULL UNIQUE CHECK (length(key_hash) = 32),
    key_start    text   NOT NULL CHECK (length(key_start) = 8),
    created_at   timestamptz(3) NOT NULL DEFAULT now(),
    expires_at   timestamptz(3),
    -- Written at most once a minute (sql/core/use_api_key.sql).
    last_used_at timestamptz(3),
    revoked_at   timestamptz(3),
    -- The panel shows a new key once, on the page its creation redirects to: the browser keeps
    -- the key XOR this pad in a cookie, this row the pad, until that page takes it (and
    -- clears it). Neither half alone is the key. Null otherwise.
    reveal_pad   bytea
);
