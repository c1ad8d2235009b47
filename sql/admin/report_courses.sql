-- The courses with a quiz of their own (content with questions), for the reports page's item
-- analysis links: course_id and title, by title. courses is small (a training catalogue).
SELECT course_id, title
FROM courses
WHERE content IS NOT NULL AND has_quiz
ORDER BY lower(title), course_id
