-- load-data `paths`: removes the courses of the paths being loaded ($1), before
-- insert_path_courses.sql sets them again. Returns nothing. Served by path_courses' key.
DELETE FROM path_courses WHERE path_id = ANY ($1::uuid[])
