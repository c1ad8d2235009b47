-- A knowledge document named $1 ($2 bytes, $3 characters of text, uploaded by admin $4) with
-- its passages $5 (in order) and their words counted in knowledge_terms, in one statement.
-- Returns document_id. Served by the primary keys (knowledge_terms' for the counts).
WITH document AS (
    INSERT INTO knowledge_documents (name, size_bytes, characters, admin_id)
    VALUES ($1, $2, $3, $4)
    RETURNING document_id
), passages AS (
    INSERT INTO knowledge_passages (document_id, position, body)
    SELECT d.document_id, p.position, p.body
    FROM document d, unnest($5::text[]) WITH ORDINALITY AS p(body, position)
    RETURNING search
), terms AS (
    INSERT INTO knowledge_terms (word, passages)
    SELECT w.lexeme, count(*)
    FROM passages p, unnest(p.search) AS w
    GROUP BY w.lexeme
    -- One order for every writer: two uploads at once wait for each other, never deadlock.
    ORDER BY w.lexeme
    ON CONFLICT (word) DO UPDATE SET passages = knowledge_terms.passages + excluded.passages
)
SELECT document_id FROM document
