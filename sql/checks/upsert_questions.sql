-- Inserts or updates catalogue questions, one array element a question (`answers` as JSON
-- text: a jsonb[] parameter would read nested lists as array dimensions); a question whose
-- values are unchanged is not rewritten. Conflicts on questions_pkey.
INSERT INTO questions AS q (question_id, question, question_type, country_id, category,
                            image_url, answers)
SELECT question_id, question, question_type, country_id, category, image_url, answers::jsonb
FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[],
            $7::text[])
     AS t (question_id, question, question_type, country_id, category, image_url, answers)
ON CONFLICT (question_id) DO UPDATE
SET question = excluded.question,
    question_type = excluded.question_type,
    country_id = excluded.country_id,
    category = excluded.category,
    image_url = excluded.image_url,
    answers = excluded.answers
WHERE (q.question, q.question_type, q.country_id, q.category, q.image_url, q.answers)
      IS DISTINCT FROM (excluded.question, excluded.question_type, excluded.country_id,
                        excluded.category, excluded.image_url, excluded.answers)
