-- Plans the rest of the transaction's statements for their actual parameter values; returns
-- nothing. For statements that switch optional filters off with `$n IS NULL OR …`: after five
-- runs on a connection PostgreSQL may settle on a generic plan that cannot drop those branches
-- and scans whole tables where an index serves the actual call. Not the service-wide default:
-- the training family's bulk statements are faster with cached generic plans.
SET LOCAL plan_cache_mode = force_custom_plan
