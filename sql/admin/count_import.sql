-- Keeps import $1's result so far: $2 inserted, $3 updated, $4 enrollments created, $5
-- rejected rows, $6 the unmatched vehicle types ({"value": rows}). Written in each batch's
-- transaction, so it counts what was committed. Returns nothing. Served by the primary key.
UPDATE rider_imports
SET inserted = $2, updated = $3, enrollments_created = $4, rejected = $5,
    unmatched_vehicles = $6
WHERE import_id = $1
