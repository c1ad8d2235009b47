-- The stored Questioner array of the checks $1 (id[]) that already exist, so a reload keeps
-- their snapshot. Served by checks_pkey.
SELECT id, answers
FROM checks
WHERE id = ANY($1::bigint[])
