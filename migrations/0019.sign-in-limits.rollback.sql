DROP INDEX sign_in_attempts_kind;
DROP INDEX sign_in_attempts_address;
ALTER TABLE sign_in_attempts DROP COLUMN address, DROP COLUMN attempt_id;
