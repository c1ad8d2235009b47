-- Which of the checks $1 (id[]) are stored already: their ids. Served by checks_pkey.
SELECT id
FROM checks
WHERE id = ANY($1::bigint[])
