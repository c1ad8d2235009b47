DROP TABLE assistant_questions;
DROP TABLE knowledge_terms;
DROP TABLE knowledge_passages;
DROP TABLE knowledge_documents;
DROP TABLE ai_job_sources;
DROP TABLE ai_jobs;
