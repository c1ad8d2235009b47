-- load-data `paths`: the loaded paths' courses, in order, from parallel arrays (path,
-- course, position). Returns nothing.
INSERT INTO path_courses (path_id, course_id, position)
SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::integer[])
