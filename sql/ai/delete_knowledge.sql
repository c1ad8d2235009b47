-- Deletes knowledge document $1 and its passages, and takes their words off knowledge_terms.
-- Returns its name, or no row for an unknown id. Served by the primary keys. (Every part of the
-- statement sees the passages as they were before it, so the counts read them before the
-- cascade removes them.)
WITH gone AS (
    DELETE FROM knowledge_documents WHERE document_id = $1 RETURNING name
), terms AS (
    SELECT w.lexeme, count(*) AS passages
    FROM knowledge_passages p, unnest(p.search) AS w
    WHERE p.document_id = $1 AND EXISTS (SELECT FROM gone)
    GROUP BY w.lexeme
), counted AS (
    UPDATE knowledge_terms k
    SET passages = k.passages - t.passages
    FROM (SELECT * FROM terms ORDER BY lexeme) AS t
    WHERE k.word = t.lexeme
)
SELECT name FROM gone
