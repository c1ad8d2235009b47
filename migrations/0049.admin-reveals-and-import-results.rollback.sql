ALTER TABLE rider_imports
    DROP COLUMN inserted,
    DROP COLUMN updated,
    DROP COLUMN enrollments_created,
    DROP COLUMN rejected,
    DROP COLUMN unmatched_vehicles,
    DROP COLUMN failure;
ALTER TABLE api_keys ADD COLUMN reveal_pad bytea;
DROP TABLE admin_reveals;
