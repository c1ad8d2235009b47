-- The rider $1 signed in with the new PIN $2 that "Forgot your PIN?" sent: it becomes their
-- PIN (unless their PIN changed meanwhile), the reset is used up, and their other rider
-- sessions end, as at any new PIN. Returns nothing. Served by the primary keys of pin_resets
-- and riders, and web_sessions_rider.
WITH used AS (
    DELETE FROM pin_resets
    WHERE rider_id = $1 AND pin_hash = $2
    RETURNING pin_hash, replaces
), replaced AS (
    UPDATE riders r
    SET pin_hash = used.pin_hash
    FROM used
    WHERE r.rider_id = $1 AND r.pin_hash = used.replaces
    RETURNING r.rider_id
)
DELETE FROM web_sessions
WHERE kind = 'rider' AND rider_id IN (SELECT rider_id FROM replaced)
