-- The $2 passages that best match question $1, best first: document name and body. The
-- question is searched by its 5 rarest words that occur in the knowledge base (any of them),
-- leaving out words found in more than a fifth of the passages. Served by knowledge_terms'
-- primary key, then knowledge_passages_search (GIN).
WITH total AS (
    SELECT count(*) AS passages FROM knowledge_passages
), rare AS (
    SELECT k.word
    FROM unnest(tsvector_to_array(to_tsvector('simple', $1))) AS asked(word)
    JOIN knowledge_terms k ON k.word = asked.word
    WHERE k.passages > 0 AND k.passages <= greatest(20, (SELECT passages FROM total) / 5)
    ORDER BY k.passages, k.word
    LIMIT 5
), q AS (
    -- The words are lexemes already: parsed again they stay the same; any of them may match.
    SELECT replace(plainto_tsquery('simple', string_agg(word, ' '))::text, ' & ', ' | ')::tsquery
               AS query
    FROM rare
)
SELECT d.name, p.body
FROM q
JOIN knowledge_passages p ON p.search @@ q.query
JOIN knowledge_documents d ON d.document_id = p.document_id
ORDER BY ts_rank(p.search, q.query) DESC, p.document_id, p.position
LIMIT $2
