-- Deletes endpoint $1 and its deliveries (they have no foreign key: see migration 0018).
-- Returns one row when the endpoint existed. Served by both primary keys.
WITH deliveries AS (
    DELETE FROM webhook_deliveries WHERE endpoint_id = $1
)
DELETE FROM webhook_endpoints
WHERE endpoint_id = $1
RETURNING endpoint_id
