-- Saves a flag with source 'api' for rider $1 (matched exactly); $2 type, $3 note or NULL.
-- Returns the flag_id, or no row when the rider does not exist. Served by riders' primary key.
INSERT INTO flags (rider_id, type, note, source)
SELECT rider_id, $2, $3, 'api' FROM riders WHERE rider_id = $1
RETURNING flag_id
