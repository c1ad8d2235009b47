-- The IDs of the migrations applied to this database (yoyo's own table; a handful of rows, read
-- whole). For the readiness probe.
SELECT migration_id FROM _yoyo_migration
