-- Where an attempt from an unknown device (no valid device cookie) on subject $2 of kind $1
-- from address $3 stands; each value is the number of seconds until a limit frees, null while
-- it is not reached:
--   subject: $4 attempts on the subject in 15 minutes, from any address (the $4-th newest);
--   address: $5 attempts from the address in 15 minutes, over every subject of the kind;
--   ceiling: $6 attempts of the kind in the last minute (never, when $6 is null).
-- Attempts are failures and attempts still being checked, of unknown devices only (a known
-- device's are counted on their own: device_standing.sql). One row. Served by
-- sign_in_attempts_recent, sign_in_attempts_address and sign_in_attempts_kind.
SELECT
    (SELECT extract(epoch FROM at + interval '15 minutes' - now())::float8
     FROM sign_in_attempts
     WHERE kind = $1 AND subject = $2 AND device IS NULL AND at > now() - interval '15 minutes'
     ORDER BY at DESC
     OFFSET $4::int - 1 LIMIT 1) AS subject,
    (SELECT extract(epoch FROM at + interval '15 minutes' - now())::float8
     FROM sign_in_attempts
     WHERE kind = $1 AND address = $3 AND device IS NULL AND at > now() - interval '15 minutes'
     ORDER BY at DESC
     OFFSET $5::int - 1 LIMIT 1) AS address,
    (SELECT extract(epoch FROM at + interval '1 minute' - now())::float8
     FROM sign_in_attempts
     WHERE kind = $1 AND device IS NULL AND $6::int IS NOT NULL
       AND at > now() - interval '1 minute'
     ORDER BY at DESC
     OFFSET $6::int - 1 LIMIT 1) AS ceiling
