-- Every knowledge document with its passage count, newest first. Served by a scan of
-- knowledge_documents (few rows) and the primary key of knowledge_passages.
SELECT d.document_id, d.name, d.size_bytes, d.characters, d.created_at, a.name AS admin_name,
       (SELECT count(*) FROM knowledge_passages p WHERE p.document_id = d.document_id)
           AS passages
FROM knowledge_documents d
LEFT JOIN admins a ON a.admin_id = d.admin_id
ORDER BY d.created_at DESC, d.document_id DESC
