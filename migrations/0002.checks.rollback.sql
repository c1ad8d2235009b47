DROP TABLE checks;
DROP TABLE questions;
