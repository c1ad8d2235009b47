-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- A free-text cell of a CSV export (docs/csv.md) as CSV text: NULL is an empty cell; RFC 4180
-- quoting for a cell with a comma, a quote or a line break; and the formula guard: a
-- spreadsheet runs a cell that starts with =, +, -, @ (and, in some, a tab or a carriage
-- return) as a formula, so such a cell gets a leading ' (and quotes) unless it is entirely a
-- number (a phone +971501234567), which a spreadsheet reads as that number anyway. Codes,
-- IDs, times and numbers the service writes need neither, so the export statements apply it
-- to free text only. The rows are rendered here, not in Python: at 500,000 rows a file, a
-- check and a csv.writer call per cell in Python cost more than the whole query. A single
-- expression, inlined into the calling statement.
CREATE OR REPLACE FUNCTION admin_csv_text(cell text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN cell IS NULL THEN ''
        -- Most cells need nothing: one regular expression tells (half the cost of the two).
        WHEN cell !~ '^[=+\-@\t\r]|[",\r\n]' THEN cell
        WHEN left(cell, 1) IN ('=', '+', '-', '@', E'\t', E'\r')
             AND cell !~ '^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$'
            THEN '"''' || replace(cell, '"', '""') || '"'
        WHEN cell ~ '[",\r\n]' THEN '"' || replace(cell, '"', '""') || '"'
        ELSE cell
    END
$$;
