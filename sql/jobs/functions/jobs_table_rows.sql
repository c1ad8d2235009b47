-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- Every table of the service's schema (public) with its row count, in name order: what a
-- backup records in its manifest (counted in the snapshot pg_dump dumps) and what a restore
-- must show again. The function travels in the archive, so a restored database has it too.
-- One count(*) scan a table; the statement cannot name the tables in advance, hence PL/pgSQL.
CREATE OR REPLACE FUNCTION jobs_table_rows() RETURNS TABLE (table_name text, row_count bigint)
LANGUAGE plpgsql STABLE AS $$
DECLARE
    name text;
BEGIN
    FOR name IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename
    LOOP
        table_name := name;
        EXECUTE format('SELECT count(*) FROM public.%I', name) INTO row_count;
        RETURN NEXT;
    END LOOP;
END
$$;
