-- Knowledge document $1's name and passage count (the delete's confirm page), or no row.
-- Served by the primary key of knowledge_documents and of knowledge_passages.
SELECT d.name,
       (SELECT count(*) FROM knowledge_passages p WHERE p.document_id = d.document_id)
           AS passages
FROM knowledge_documents d
WHERE d.document_id = $1
