-- A knowledge document named $1 ($2 bytes, $3 characters of text, uploaded by admin $4) with
-- its passages $5 (in order), in one statement. Returns document_id.
WITH document AS (
    INSERT INTO knowledge_documents (name, size_bytes, characters, admin_id)
    VALUES ($1, $2, $3, $4)
    RETURNING document_id
), passages AS (
    INSERT INTO knowledge_passages (document_id, position, body)
    SELECT d.document_id, p.position, p.body
    FROM document d, unnest($5::text[]) WITH ORDINALITY AS p(body, position)
)
SELECT document_id FROM document
