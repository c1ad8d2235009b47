-- The item analysis's per-option counts and discrimination index (docs/reports.md,
-- "Item analysis"), recounted by the reports job like the other summaries (migration 0027):
-- the options table now counts every answer that chose an option (`chosen`) beside the wrong
-- answers that did (`wrong`, the old count); the answers table keeps, per row, the sum and the
-- sum of squares of the rest-of-test scores of its answers (right answers to the attempt's
-- other questions), from which the report correlates question score and rest-of-test score.
-- Sums, so that any set of markets and cities is a sum of rows. The job replaces every row,
-- so the new columns need no back-fill beyond its next run.
-- depends: 0042.rider-pin-resets

ALTER TABLE report_quiz_wrong_options RENAME TO report_quiz_options;
ALTER INDEX report_quiz_wrong_options_course RENAME TO report_quiz_options_course;
ALTER TABLE report_quiz_options RENAME COLUMN chosen TO wrong;
ALTER TABLE report_quiz_options ADD COLUMN chosen integer NOT NULL DEFAULT 0;

ALTER TABLE report_quiz_answers ADD COLUMN rest bigint NOT NULL DEFAULT 0,
                                ADD COLUMN rest_squares bigint NOT NULL DEFAULT 0;
