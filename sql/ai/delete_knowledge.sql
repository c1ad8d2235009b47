-- Deletes knowledge document $1 and its passages. Returns its name, or no row for an unknown
-- id. Served by the primary key.
DELETE FROM knowledge_documents WHERE document_id = $1 RETURNING name
