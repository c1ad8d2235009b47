-- Ends the rider-app sessions of the staged riders whose last record sent a PIN or the status
-- inactive. Returns nothing. Served by web_sessions_rider.
DELETE FROM web_sessions w
USING (SELECT DISTINCT ON (rider_id) rider_id, pin_hash, status
       FROM staged_riders ORDER BY rider_id, ord DESC) s
WHERE w.rider_id = s.rider_id AND (s.pin_hash IS NOT NULL OR s.status = 'inactive')
