-- Plans the rest of the transaction's statements for their actual parameter values, so the
-- optional filters of select_checks.sql (`$n IS NULL OR ...`) fold away and indexes apply.
SET LOCAL plan_cache_mode = force_custom_plan
