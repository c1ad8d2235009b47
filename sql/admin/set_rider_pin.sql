-- Sets rider $1's PIN hash to $2 (the API's format, app/training/pins.py). Returns the
-- rider_id, or no row for an unknown rider. Served by riders' primary key.
UPDATE riders SET pin_hash = $2, updated_at = now() WHERE rider_id = $1 RETURNING rider_id
