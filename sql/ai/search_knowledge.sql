-- The $2 passages that best match any word of question $1, best first: document name and
-- body. Served by knowledge_passages_search (GIN).
WITH q AS (
    -- Any word, not all of them: a question rarely repeats a passage's wording.
    SELECT replace(plainto_tsquery('simple', $1)::text, ' & ', ' | ')::tsquery AS query
)
SELECT d.name, p.body
FROM q
JOIN knowledge_passages p ON p.search @@ q.query
JOIN knowledge_documents d ON d.document_id = p.document_id
ORDER BY ts_rank(p.search, q.query) DESC, p.document_id, p.position
LIMIT $2
