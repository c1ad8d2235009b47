-- Plans the rest of the transaction's cursors for reading every row (a cursor is otherwise
-- planned for its first 10 %: nested loops of index lookups, several times slower for a whole
-- export than hash joins). Returns nothing.
SET LOCAL cursor_tuple_fraction = 1
