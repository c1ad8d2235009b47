-- Sign-in limits that hold under parallel requests (issue 23): an attempt is recorded before
-- its secret is checked (and removed again when the secret was right), so each row is a
-- failure or an attempt still being checked. Each row names the client address, for the
-- per-address limit and for the rule that an address without failures on an account is not
-- held back by other addresses' failures on it (docs/security.md).
-- depends: 0014.rider

ALTER TABLE sign_in_attempts
    ADD COLUMN attempt_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- The client's address as TRUSTED_PROXY_HOPS defines it; null on rows from before 0019.
    ADD COLUMN address text;

-- "Failures of this address in the last 15 minutes", over every subject of the kind.
CREATE INDEX sign_in_attempts_address ON sign_in_attempts (kind, address, at);
-- "Failures of this kind in the last minute" (the ceiling that slows everyone).
CREATE INDEX sign_in_attempts_kind ON sign_in_attempts (kind, at);
