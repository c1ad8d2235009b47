-- Enables ($2 true) or disables endpoint $1 by hand (clearing why it was disabled). Returns
-- one row when the endpoint exists. Served by the primary key.
UPDATE webhook_endpoints
SET enabled = $2, disabled_why = NULL
WHERE endpoint_id = $1
RETURNING endpoint_id
