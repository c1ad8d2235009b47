-- Starts a turn of a delivery loop: takes the transaction's claim lock (one process claims at
-- a time, each for milliseconds: the in-flight count of claim_deliveries.sql then sees every
-- other process's claims, so two processes never pass an endpoint's cap between them), and
-- commits without waiting for the disk: a turn lost in a crash only sends its deliveries
-- again, which at-least-once delivery allows, and a turn every few milliseconds would
-- otherwise wait for a flush each. Returns nothing.
SELECT pg_advisory_xact_lock(7200101), set_config('synchronous_commit', 'off', true)
