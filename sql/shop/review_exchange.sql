-- Decides order $1's exchange: a pending one takes status $2, a decided one keeps its status.
-- Returns the status after the call, or no row when the order has no exchange request
-- (primary key). The row lock and PostgreSQL's re-check of the locked row's latest version
-- make concurrent opposite reviews serialise: the second one sees the first one's decision.
UPDATE shop_orders
SET exchange_status = CASE WHEN exchange_status = 'pending' THEN $2 ELSE exchange_status END
WHERE order_id = $1 AND exchange_status IS NOT NULL
RETURNING exchange_status
