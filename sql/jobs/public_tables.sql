-- Returns the names of the tables in the public schema (table_name): a restore's target must
-- hold none of the service's. Served by the catalog.
SELECT tablename AS table_name FROM pg_tables WHERE schemaname = 'public'
