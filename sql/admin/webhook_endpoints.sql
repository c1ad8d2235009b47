-- The webhooks page: every endpoint, oldest first, with the number of its deliveries waiting
-- to be sent. Returns endpoint_id, url, events, description, enabled, disabled_why,
-- created_at, pending. Endpoints are few and scanned; the count is served by
-- webhook_deliveries_due.
SELECT e.endpoint_id, e.url, e.events, e.description, e.enabled, e.disabled_why, e.created_at,
       (SELECT count(*) FROM webhook_deliveries d
        WHERE d.endpoint_id = e.endpoint_id AND d.status = 'pending') AS pending
FROM webhook_endpoints e
ORDER BY e.created_at, e.endpoint_id
