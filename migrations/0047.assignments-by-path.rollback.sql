DROP INDEX assignments_path;
