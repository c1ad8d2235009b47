CREATE INDEX assignments_path ON assignments (path_id, rider_id);
ALTER TABLE assignments
    DROP CONSTRAINT assignments_pkey,
    ADD CONSTRAINT assignments_pkey PRIMARY KEY (assignment_id);
