-- Serialises the admission of sign-in attempts of kind $1 across every process and instance
-- (the transaction's advisory lock): each admission reads the standing, then records its
-- attempt, before the next one reads. Returns nothing of use.
SELECT pg_advisory_xact_lock(hashtext('sign_in_attempts:' || $1))
