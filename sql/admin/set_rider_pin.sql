-- Sets rider $1's PIN hash to $2 (the API's format, app/training/pins.py) and refuses the
-- one-tap links issued until now (a new PIN is given when the rider's phone or links may be in
-- the wrong hands). Returns the rider_id, or no row for an unknown rider. Served by riders'
-- primary key.
UPDATE riders SET pin_hash = $2, links_revoked_at = now(), updated_at = now()
WHERE rider_id = $1
RETURNING rider_id
