-- What a check's answer copies from the catalogue when the load file leaves it out: text,
-- category and image of the questions $1 (question_id[]). Served by questions_pkey.
SELECT question_id, question, category, image_url
FROM questions
WHERE question_id = ANY($1::bigint[])
