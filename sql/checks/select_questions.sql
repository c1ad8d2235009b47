-- The catalogue as served by GET /questioner, ordered by question_id; $1 country_id or NULL
-- for every country. questions_country serves a country (already in question_id order),
-- questions_pkey the whole catalogue.
SELECT question_id, question, question_type, answers
FROM questions
WHERE $1::bigint IS NULL OR country_id = $1
ORDER BY question_id
