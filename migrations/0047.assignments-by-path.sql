-- The riders list's filter by path and its state (docs/admin-riders.md, "One riders filter"):
-- the riders holding an assignment of one path, found without a scan of every assignment.
-- depends: 0046.admin-notices-and-calls

CREATE INDEX assignments_path ON assignments (path_id, rider_id);
