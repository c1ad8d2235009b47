-- Adds an endpoint: $1 url, $2 events, $3 description, $4 its new signing secret. It takes
-- the events made from now on. Returns endpoint_id.
INSERT INTO webhook_endpoints (url, events, description, secret)
VALUES ($1, $2, $3, $4)
RETURNING endpoint_id
