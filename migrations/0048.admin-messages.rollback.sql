DROP TABLE admin_message_sends;
DELETE FROM messages WHERE kind = 'admin';
ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
ALTER TABLE messages ADD CONSTRAINT messages_kind_check
    CHECK (kind IN ('reminder', 'flag', 'pin_reset'));
