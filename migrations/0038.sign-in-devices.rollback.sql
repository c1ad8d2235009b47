DELETE FROM sign_in_attempts WHERE device IS NOT NULL;
DROP INDEX sign_in_attempts_kind;
CREATE INDEX sign_in_attempts_kind ON sign_in_attempts (kind, at);
DROP INDEX sign_in_attempts_address;
CREATE INDEX sign_in_attempts_address ON sign_in_attempts (kind, address, at);
DROP INDEX sign_in_attempts_device;
ALTER TABLE sign_in_attempts DROP COLUMN device;
