-- Family C, the training platform: riders, courses, learning paths, assignments, course
-- results and flags. Times are timestamptz(3): stored at millisecond precision, so what the
-- API prints is exactly what is stored and the completions cursor compares exact values.
-- depends: 0001.job-runs

CREATE TABLE riders (
    rider_id     text        PRIMARY KEY CHECK (length(rider_id) BETWEEN 1 AND 64),
    name         text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    market       text        NOT NULL CHECK (market IN ('AE','KW','QA','BH','OM','JO','EG','IQ')),
    phone        text        CHECK (length(phone) <= 32),
    city         text        CHECK (length(city) <= 100),
    vehicle_type text        CHECK (length(vehicle_type) <= 40 AND vehicle_type = lower(vehicle_type)),
    nationality  text        CHECK (length(nationality) <= 60),
    language     text        NOT NULL DEFAULT 'en' CHECK (language IN ('en','ar','ur','ku')),
    status       text        NOT NULL DEFAULT 'active'
                             CHECK (status IN ('onboarding','active','suspended','inactive')),
    -- 'sha256$<salt hex>$<digest hex>' (see README, Family C: why not a slow KDF)
    pin_hash     text,
    created_at   timestamptz(3) NOT NULL DEFAULT now(),
    updated_at   timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE courses (
    course_id  uuid    PRIMARY KEY,
    title      text    NOT NULL,
    has_quiz   boolean NOT NULL DEFAULT true,
    pass_mark  integer CHECK (pass_mark BETWEEN 0 AND 100)
);

CREATE TABLE paths (
    path_id          uuid    PRIMARY KEY,
    name             text    NOT NULL,
    active           boolean NOT NULL DEFAULT true,
    days_to_complete integer NOT NULL CHECK (days_to_complete > 0),
    rule             text    NOT NULL DEFAULT 'manual'
                             CHECK (rule IN ('manual','all_matching','onboarding','flag')),
    -- Filters: an empty array matches any rider.
    flag_types       text[]  NOT NULL DEFAULT '{}',
    markets          text[]  NOT NULL DEFAULT '{}',
    vehicle_types    text[]  NOT NULL DEFAULT '{}',
    nationalities    text[]  NOT NULL DEFAULT '{}'
);

CREATE TABLE path_courses (
    path_id   uuid    NOT NULL REFERENCES paths ON DELETE CASCADE,
    course_id uuid    NOT NULL REFERENCES courses,
    position  integer NOT NULL,
    PRIMARY KEY (path_id, course_id),
    UNIQUE (path_id, position)
);

-- No foreign keys here, on purpose: their per-row triggers cost 2.3 s of a 250,000-rider
-- POST /api/v1/assignments (measured; more than the insert itself). Every statement that
-- inserts assignments takes rider and path from their tables in the same statement, and
-- riders and paths are never deleted (nothing in the service deletes them).
CREATE TABLE assignments (
    assignment_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    rider_id      text   NOT NULL,
    path_id       uuid   NOT NULL,
    why           text   NOT NULL CHECK (why IN ('rule','onboarding','flag','api','admin')),
    assigned_at   timestamptz(3) NOT NULL DEFAULT now(),
    deadline      timestamptz(3) NOT NULL,
    completed_at  timestamptz(3)
);
-- The one index besides the key (each index costs about 0.45 s of a 250,000-rider
-- POST /api/v1/assignments). NULLS NOT DISTINCT makes it hold at most one open assignment
-- (completed_at NULL) per rider and path, so "skip open" is ON CONFLICT DO NOTHING, safe under
-- concurrency; its prefix (rider_id, path_id) answers "has the rider ever had this path"
-- (automatic rules) and serves the rider's history.
CREATE UNIQUE INDEX assignments_once ON assignments (rider_id, path_id, completed_at)
    NULLS NOT DISTINCT;

-- One record per rider per course. completed_at and proof_code are set at the first pass
-- and never change; a record with completed_at NULL is a course opened but not passed.
CREATE TABLE course_results (
    rider_id           text    NOT NULL REFERENCES riders,
    course_id          uuid    NOT NULL REFERENCES courses,
    language           text    NOT NULL CHECK (language IN ('en','ar','ur','ku')),
    started_at         timestamptz(3) NOT NULL,
    completed_at       timestamptz(3),
    score              double precision CHECK (score BETWEEN 0 AND 100),
    attempts           integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    time_spent_seconds integer NOT NULL DEFAULT 0 CHECK (time_spent_seconds >= 0),
    proof_code         text    UNIQUE CHECK (proof_code ~ '^[ABCDEFGHJKMNPQRSTVWXYZ2-9]{8}$'),
    PRIMARY KEY (rider_id, course_id),
    CHECK ((completed_at IS NULL) = (proof_code IS NULL))
);
-- The completions feed: keyset order (completed_at, rider_id, course_id) of passed records.
CREATE INDEX course_results_feed ON course_results (completed_at, rider_id, course_id)
    WHERE completed_at IS NOT NULL;
-- "Which riders passed these courses" (completion of a path assigned to many riders at once).
CREATE INDEX course_results_course ON course_results (course_id, rider_id)
    WHERE completed_at IS NOT NULL;

-- Whether the rider has passed every course of the path (true for a path without courses):
-- an assignment created in that case is completed at once. Served by course_results' key.
CREATE FUNCTION training_path_passed(p_rider_id text, p_path_id uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT NOT EXISTS (
        SELECT FROM path_courses pc
        WHERE pc.path_id = p_path_id
          AND NOT EXISTS (SELECT FROM course_results cr
                          WHERE cr.rider_id = p_rider_id AND cr.course_id = pc.course_id
                            AND cr.completed_at IS NOT NULL))
$$;

-- A random proof code (8 characters of ABCDEFGHJKMNPQRSTVWXYZ23456789); the unique
-- constraint on course_results.proof_code catches the rare repeat, and the writer retries.
CREATE FUNCTION training_proof_code() RETURNS text
LANGUAGE sql VOLATILE AS $$
    SELECT string_agg(substr('ABCDEFGHJKMNPQRSTVWXYZ23456789', 1 + floor(random() * 30)::int, 1), '')
    FROM generate_series(1, 8)
$$;

CREATE TABLE flags (
    flag_id    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    rider_id   text NOT NULL REFERENCES riders,
    type       text NOT NULL CHECK (type IN ('late_delivery','customer_complaint','unsafe_driving',
                                             'food_handling','equipment','cancellations')),
    note       text CHECK (length(note) <= 1000),
    source     text NOT NULL DEFAULT 'api' CHECK (source IN ('api','admin')),
    created_at timestamptz(3) NOT NULL DEFAULT now()
);
-- The rider page lists a rider's flags, newest first.
CREATE INDEX flags_rider ON flags (rider_id, created_at);
