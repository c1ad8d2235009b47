-- Where an attempt with the valid device cookie whose nonce is $2 (kind $1) stands: the number
-- of seconds until the device's $3 attempts in 15 minutes free one, null while it has fewer.
-- Attempts are failures and attempts still being checked. One value. Served by
-- sign_in_attempts_device.
SELECT extract(epoch FROM at + interval '15 minutes' - now())::float8
FROM sign_in_attempts
WHERE kind = $1 AND device = $2 AND at > now() - interval '15 minutes'
ORDER BY at DESC
OFFSET $3::int - 1 LIMIT 1
