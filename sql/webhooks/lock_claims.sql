-- Takes the transaction's claim lock (one process claims at a time, each for milliseconds):
-- the in-flight count of claim_deliveries.sql then sees every other process's claims, so two
-- processes never pass an endpoint's cap between them. Returns nothing.
SELECT pg_advisory_xact_lock(7200101)
