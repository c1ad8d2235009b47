-- The reports job: records that the summaries were counted now. Returns refreshed_at.
-- Served by report_refresh's key (one row).
INSERT INTO report_refresh (refreshed_at) VALUES (now())
ON CONFLICT (only_row) DO UPDATE SET refreshed_at = excluded.refreshed_at
RETURNING refreshed_at
