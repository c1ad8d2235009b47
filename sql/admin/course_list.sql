-- The panel's courses list: every course with published, has_quiz, whether it has lessons,
-- when its content was saved, and its translations as [{language, state, outdated}] by
-- language; newest saved first. courses and course_translations are small.
SELECT c.course_id, c.title, c.published, c.has_quiz, c.content IS NOT NULL AS has_content,
       c.updated_at,
       coalesce((SELECT jsonb_agg(jsonb_build_object(
                            'language', t.language, 'state', t.state,
                            'outdated', t.updated_at < c.updated_at) ORDER BY t.language)
                 FROM course_translations t WHERE t.course_id = c.course_id),
                '[]'::jsonb) AS translations
FROM courses c
ORDER BY c.updated_at DESC, c.course_id
