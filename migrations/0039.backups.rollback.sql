DROP INDEX job_runs_succeeded;
DROP TABLE backups;
