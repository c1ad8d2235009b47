-- Keeps $2, the hash of a new PIN, for the rider $1 when they may be sent one: active (not
-- inactive), with a PIN and a phone, and fewer than 3 new PINs sent in the last day; it
-- expires after a day. Returns the rider's phone, name and language, or no row. Served by
-- riders' and pin_resets' primary keys and messages_rider (the day's count).
WITH rider AS (
    SELECT rider_id, phone, name, language, pin_hash
    FROM riders
    WHERE rider_id = $1 AND status <> 'inactive' AND pin_hash IS NOT NULL AND phone IS NOT NULL
      AND (SELECT count(*) FROM messages m
           WHERE m.rider_id = $1 AND m.kind = 'pin_reset'
             AND m.created_at > now() - interval '1 day') < 3
), issued AS (
    INSERT INTO pin_resets (rider_id, pin_hash, replaces, expires_at)
    SELECT rider_id, $2, pin_hash, now() + interval '1 day' FROM rider
    ON CONFLICT (rider_id) DO UPDATE
    SET pin_hash = excluded.pin_hash, replaces = excluded.replaces,
        expires_at = excluded.expires_at
    RETURNING rider_id
)
SELECT r.rider_id, r.phone, r.name, r.language
FROM rider r
JOIN issued USING (rider_id)
