-- Saves course translations, validated against their course by the caller: a JSON array of
-- { course_id, language, document, state }. A saved translation replaces the one of the same
-- course and language. Returns nothing. Served by course_translations' primary key.
INSERT INTO course_translations (course_id, language, document, state)
SELECT course_id, language, document, state
FROM jsonb_to_recordset($1::jsonb)
    AS r(course_id uuid, language text, document jsonb, state text)
ON CONFLICT (course_id, language) DO UPDATE SET
    document = excluded.document, state = excluded.state, updated_at = now()
