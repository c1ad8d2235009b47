DROP TABLE quiz_answers;
DROP TABLE quiz_attempts;
