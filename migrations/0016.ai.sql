-- AI (docs/ai.md): course generation and translation jobs, the assistant's knowledge documents
-- split into passages for full-text search, and the questions riders asked (hourly limit).
-- depends: 0011.link-revocation

-- A job is created `running` and unclaimed; a web process claims it (FOR UPDATE SKIP LOCKED)
-- and finishes it. A job still running 15 minutes after it started is failed by the sweep,
-- whether its process is busy or dead.
CREATE TABLE ai_jobs (
    job_id      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    kind        text NOT NULL CHECK (kind IN ('generation', 'translation')),
    status      text NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'succeeded', 'failed')),
    error       text,
    admin_id    bigint REFERENCES admins ON DELETE SET NULL,
    -- Generation: the course it made. Translation: the course it translates.
    course_id   uuid REFERENCES courses ON DELETE SET NULL,
    language    text CHECK (language IN ('ar', 'ur', 'ku')),
    source_name text,
    claimed_by  text,
    claimed_at  timestamptz(3),
    started_at  timestamptz(3) NOT NULL DEFAULT now(),
    finished_at timestamptz(3),
    CHECK ((kind = 'translation') = (language IS NOT NULL)),
    CHECK ((status = 'running') = (finished_at IS NULL)),
    CHECK ((status = 'failed') = (error IS NOT NULL))
);
-- "The oldest unclaimed job" and the sweep's "running for 15 minutes".
CREATE INDEX ai_jobs_running ON ai_jobs (started_at) WHERE status = 'running';
-- The jobs page: newest first.
CREATE INDEX ai_jobs_recent ON ai_jobs (started_at DESC);

-- A generation job's uploaded file, kept until the job ends (any process may claim the job),
-- in 1 MiB chunks: a client encodes and decodes a value on its event loop, and 20 MB at once
-- would stall it for tens of milliseconds.
CREATE TABLE ai_job_sources (
    job_id   uuid    NOT NULL REFERENCES ai_jobs ON DELETE CASCADE,
    position integer NOT NULL,
    chunk    bytea   NOT NULL,
    PRIMARY KEY (job_id, position)
);

CREATE TABLE knowledge_documents (
    document_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
    size_bytes  integer NOT NULL,
    characters  integer NOT NULL,
    admin_id    bigint REFERENCES admins ON DELETE SET NULL,
    created_at  timestamptz(3) NOT NULL DEFAULT now()
);

-- Passages of about 1,500 characters. The `simple` configuration (lower-cased words, no
-- stemming, no stop words) because documents and questions come in English, Arabic, Urdu and
-- Kurdish, for which PostgreSQL has no stemmer in common.
CREATE TABLE knowledge_passages (
    document_id bigint  NOT NULL REFERENCES knowledge_documents ON DELETE CASCADE,
    position    integer NOT NULL,
    body        text    NOT NULL,
    search      tsvector GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED,
    PRIMARY KEY (document_id, position)
);
CREATE INDEX knowledge_passages_search ON knowledge_passages USING gin (search);

-- In how many passages each word occurs (kept by the statements that add and delete
-- documents): a question is searched by its rarest words, since with no stop words a common
-- one ("the", "في") matches nearly every passage, and ranking all of them is slow and useless.
CREATE TABLE knowledge_terms (
    word     text PRIMARY KEY,
    passages integer NOT NULL
);

-- One row a question a rider asked; rows older than an hour are removed at the rider's next one.
CREATE TABLE assistant_questions (
    rider_id text NOT NULL REFERENCES riders ON DELETE CASCADE,
    asked_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX assistant_questions_recent ON assistant_questions (rider_id, asked_at);
