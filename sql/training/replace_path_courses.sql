-- load-data `paths`: the loaded paths' courses become exactly the given ones, in order.
-- $1 path IDs whose courses are replaced; $2, $3, $4 parallel arrays (path, course,
-- position). Returns nothing. Served by path_courses' primary key.
WITH removed AS (
    DELETE FROM path_courses WHERE path_id = ANY ($1::uuid[])
)
INSERT INTO path_courses (path_id, course_id, position)
SELECT * FROM unnest($2::uuid[], $3::uuid[], $4::integer[])
