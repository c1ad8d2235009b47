ALTER TABLE messages DROP CONSTRAINT messages_called;
ALTER TABLE messages DROP COLUMN called_at, DROP COLUMN called_by;
DROP TABLE admin_notices;
