ALTER TABLE report_quiz_answers DROP COLUMN rest, DROP COLUMN rest_squares;

DELETE FROM report_quiz_options WHERE wrong = 0;
ALTER TABLE report_quiz_options DROP COLUMN chosen;
ALTER TABLE report_quiz_options RENAME COLUMN wrong TO chosen;
ALTER INDEX report_quiz_options_course RENAME TO report_quiz_wrong_options_course;
ALTER TABLE report_quiz_options RENAME TO report_quiz_wrong_options;
