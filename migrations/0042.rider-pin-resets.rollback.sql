DELETE FROM sign_in_attempts WHERE kind = 'pin_reset';
ALTER TABLE sign_in_attempts DROP CONSTRAINT sign_in_attempts_kind_check;
ALTER TABLE sign_in_attempts ADD CONSTRAINT sign_in_attempts_kind_check
    CHECK (kind IN ('admin', 'rider', 'verify'));

DELETE FROM messages WHERE kind = 'pin_reset';
ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
ALTER TABLE messages ADD CONSTRAINT messages_kind_check CHECK (kind IN ('reminder', 'flag'));

DROP TABLE pin_resets;
DROP INDEX riders_rider_id_folded;
