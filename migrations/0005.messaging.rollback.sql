DROP INDEX assignments_open_deadline;
DROP TABLE messages;
