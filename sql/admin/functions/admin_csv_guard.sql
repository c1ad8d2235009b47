-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- The formula guard of the CSV exports (DESIGN §8): a spreadsheet runs a cell that starts with
-- =, +, -, @ (and, in some, a tab or a carriage return) as a formula, so such a cell gets a
-- leading ' unless it is entirely a number (a phone +971501234567, a score), which a
-- spreadsheet reads as that number anyway. Applied in SQL to the free-text columns only
-- (codes, IDs, times and numbers the service writes cannot start so): at 500,000 rows a file,
-- a check per cell in Python cost more than the whole query. A single expression, inlined.
CREATE OR REPLACE FUNCTION admin_csv_guard(cell text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN left(cell, 1) IN ('=', '+', '-', '@', E'\t', E'\r')
             AND cell !~ '^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$'
        THEN '''' || cell
        ELSE cell
    END
$$;
