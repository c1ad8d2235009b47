-- Inserts the staged orders' status history (position from 0, oldest first).
INSERT INTO shop_order_statuses (order_id, position, status, at)
SELECT o.order_id, s.position - 1, s.status, s.at
FROM staged_orders o
CROSS JOIN LATERAL ROWS FROM (json_to_recordset(o.statuses::json) AS (status text, "timestamp" timestamptz))
    WITH ORDINALITY s (status, at, position)
