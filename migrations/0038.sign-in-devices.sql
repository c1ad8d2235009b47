-- Sign-in limits that cannot be turned against riders (docs/security.md): an attempt made with
-- a valid device cookie names its device, and is counted only against that device; the
-- account, address and ceiling limits count the attempts of unknown devices (no device).
-- depends: 0034.webhook-event-facts

ALTER TABLE sign_in_attempts
    -- The random nonce of the device cookie the attempt came with; null: an unknown device.
    ADD COLUMN device text;

-- "Failures of this device in the last 15 minutes".
CREATE INDEX sign_in_attempts_device ON sign_in_attempts (kind, device, at)
    WHERE device IS NOT NULL;

-- The address and the ceiling count unknown devices only.
DROP INDEX sign_in_attempts_address;
CREATE INDEX sign_in_attempts_address ON sign_in_attempts (kind, address, at)
    WHERE device IS NULL;
DROP INDEX sign_in_attempts_kind;
CREATE INDEX sign_in_attempts_kind ON sign_in_attempts (kind, at) WHERE device IS NULL;
