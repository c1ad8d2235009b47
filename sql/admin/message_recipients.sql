-- The riders among the IDs $1 of the admin's markets $2 (empty: every market), in rider ID
-- order, each with its phone and whether an editor's message goes to it (`reachable`: not
-- inactive and with a phone); IDs of no such rider give no row. Served by riders' primary key.
SELECT rider_id, phone, status <> 'inactive' AND coalesce(phone, '') <> '' AS reachable
FROM riders
WHERE rider_id = ANY ($1::text[])
  AND (cardinality($2::text[]) = 0 OR market = ANY ($2))
ORDER BY rider_id
