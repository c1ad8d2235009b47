-- Of the riders with IDs $1, those of a market not among $2 (a market-limited admin's
-- markets): rider_id. Locked FOR SHARE until the import batch's transaction ends, so their
-- market cannot change between this check and the batch's upsert. Served by the primary key.
SELECT rider_id FROM riders
WHERE rider_id = ANY($1::text[]) AND NOT market = ANY($2::text[])
FOR SHARE
