-- When the reports' summaries were last counted (no row before the first run of the reports
-- job). report_refresh holds one row.
SELECT refreshed_at FROM report_refresh
