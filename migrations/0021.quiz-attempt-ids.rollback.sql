DROP TABLE quiz_attempt_ids;
