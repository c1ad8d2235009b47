-- Sets rider $1's status to $2. Returns the rider_id, or no row for an unknown rider. Served by
-- riders' primary key.
UPDATE riders SET status = $2, updated_at = now() WHERE rider_id = $1 RETURNING rider_id
