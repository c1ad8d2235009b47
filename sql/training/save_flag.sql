-- Saves a flag for rider $1 (matched exactly); $2 type, $3 note or NULL, $4 source ('api' or
-- 'admin'). Returns the flag_id, or no row when the rider does not exist. Served by riders'
-- primary key.
INSERT INTO flags (rider_id, type, note, source)
SELECT rider_id, $2, $3, $4 FROM riders WHERE rider_id = $1
RETURNING flag_id
