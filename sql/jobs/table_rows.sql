-- Returns every table of the service's schema with its row count, as (table_name, row_count),
-- in name order (sql/jobs/functions/jobs_table_rows.sql): one count(*) scan a table.
SELECT table_name, row_count FROM jobs_table_rows()
