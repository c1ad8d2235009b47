DROP TABLE report_quiz_attempts;
DROP TABLE report_quiz_wrong_options;
DROP TABLE report_quiz_answers;
DROP TABLE report_completions;
DROP TABLE report_assignments;
DROP TABLE report_refresh;
