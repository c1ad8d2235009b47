-- Whole minutes until subject $2 of kind $1 may try again: a row only when it has 5 or more
-- failures in the last 15 minutes (the fifth newest decides when the window frees). Served by
-- sign_in_attempts_recent.
SELECT greatest(1, ceil(extract(epoch FROM at + interval '15 minutes' - now()) / 60))::int
       AS minutes
FROM sign_in_attempts
WHERE kind = $1 AND subject = $2 AND at > now() - interval '15 minutes'
ORDER BY at DESC
OFFSET 4 LIMIT 1
