DROP TABLE flags;
DROP FUNCTION training_proof_code();
DROP FUNCTION training_path_passed(text, uuid);
DROP TABLE course_results;
DROP TABLE assignments;
DROP TABLE path_courses;
DROP TABLE paths;
DROP TABLE courses;
DROP TABLE riders;
