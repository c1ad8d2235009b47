-- Records an attempt on subject $2 (kind $1) from address $3, with the device cookie whose nonce
-- is $4 (null: an unknown device), counted as a failure until the secret proves right, and
-- forgets that subject's attempts older than 15 minutes. Returns the attempt's id. Served by
-- sign_in_attempts_recent.
WITH forgotten AS (
    DELETE FROM sign_in_attempts
    WHERE kind = $1 AND subject = $2 AND at <= now() - interval '15 minutes'
)
INSERT INTO sign_in_attempts (kind, subject, address, device) VALUES ($1, $2, $3, $4)
RETURNING attempt_id
