-- The courses a path may hold, for the path form's course lists: id, title and published, by
-- title. courses is small (a training catalogue).
SELECT course_id, title, published
FROM courses
ORDER BY lower(title), course_id
