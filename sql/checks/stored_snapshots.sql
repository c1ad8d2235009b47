-- The stored checks $1 (id[]), each with its stored Questioner array when its $2 (boolean[],
-- parallel to $1) is true (a reload of a record that leaves answer fields out keeps their
-- snapshot; NULL for the others). Served by checks_pkey.
SELECT c.id, CASE WHEN t.completed THEN c.answers END AS answers
FROM unnest($1::bigint[], $2::boolean[]) AS t (id, completed)
JOIN checks c ON c.id = t.id
