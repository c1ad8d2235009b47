-- Endpoint $1 for its page (its secret is never read again after it was shown). Returns
-- endpoint_id, url, events, description, enabled, disabled_why, created_at, or no row.
-- Served by the primary key.
SELECT endpoint_id, url, events, description, enabled, disabled_why, created_at
FROM webhook_endpoints
WHERE endpoint_id = $1
