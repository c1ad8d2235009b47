-- Records a failed sign-in of subject $2 (kind $1) and forgets that subject's failures older
-- than 15 minutes. Returns nothing. Served by sign_in_attempts_recent.
WITH forgotten AS (
    DELETE FROM sign_in_attempts
    WHERE kind = $1 AND subject = $2 AND at <= now() - interval '15 minutes'
)
INSERT INTO sign_in_attempts (kind, subject) VALUES ($1, $2)
