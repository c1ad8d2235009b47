-- Sets rider $1's status to $2 and refuses the one-tap links issued until now (a link sent
-- under the old status must not outlive it). Returns the rider_id, or no row for an unknown
-- rider. Served by riders' primary key.
UPDATE riders SET status = $2, links_revoked_at = now(), updated_at = now()
WHERE rider_id = $1
RETURNING rider_id
