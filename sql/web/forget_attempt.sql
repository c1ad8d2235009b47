-- Removes attempt $1, whose secret was right: only failures are kept. Returns nothing. Served
-- by the primary key.
DELETE FROM sign_in_attempts WHERE attempt_id = $1
