-- The assignments' key leads with the path: (path_id, rider_id, assignment_id) serves the
-- riders list's filter by path (docs/admin-riders.md, "One riders filter") as the separate
-- index of migration 0047 did, while an assign of 250,000 riders keeps up two indexes again,
-- not three (each costs about a tenth of that statement). Nothing looks an
-- assignment up by its number alone, and the number stays unique (an identity column).
-- depends: 0049.admin-reveals-and-import-results

ALTER TABLE assignments
    DROP CONSTRAINT assignments_pkey,
    ADD CONSTRAINT assignments_pkey PRIMARY KEY (path_id, rider_id, assignment_id);
DROP INDEX assignments_path;
