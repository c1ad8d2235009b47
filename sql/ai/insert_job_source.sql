-- Chunk number $2 (from 0) of job $1's uploaded file: $3. Returns nothing.
INSERT INTO ai_job_sources (job_id, position, chunk) VALUES ($1, $2, $3)
