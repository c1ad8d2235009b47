-- Starts a turn of a delivery loop, for its transaction:
-- - takes the claim lock (one process claims at a time, each for milliseconds: the in-flight
--   count of claim_deliveries.sql then sees every other process's claims, so two processes
--   never pass an endpoint's cap between them);
-- - commits without waiting for the disk: a turn lost in a crash only sends its deliveries
--   again, which at-least-once delivery allows, and a turn every few milliseconds would
--   otherwise wait for a flush each;
-- - plans without sequential scans: every statement of a turn is served by an index, but
--   webhook_deliveries grows by 250,000 rows in one statement, faster than autoanalyze
--   notices, and a plan made for the small table it was (a scan of it, hashed) then read the
--   whole table every turn (40 deliveries a second instead of hundreds).
-- Returns nothing.
SELECT pg_advisory_xact_lock(7200101),
       set_config('synchronous_commit', 'off', true),
       set_config('enable_seqscan', 'off', true)
