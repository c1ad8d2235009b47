-- Recomputes the columns derived from an order's status history and items, which the
-- exchange-orders filters and output read: current status and its API group, time of the
-- last status, first delivery time, bag totals. $1: order ids (NULL: every order).
-- Primary keys of shop_order_statuses and shop_order_items serve the lateral reads.
UPDATE shop_orders o
SET current_status = h.status,
    status_group = CASE h.status
        WHEN 'PROCESSING' THEN 'processing' WHEN 'PAID' THEN 'processing'
        WHEN 'FORWARDED' THEN 'sent' WHEN 'SENT' THEN 'sent'
        WHEN 'DELIVERED' THEN 'delivered' WHEN 'MANUAL_DELIVERED' THEN 'delivered'
        WHEN 'CANCELLED' THEN 'cancelled' END,
    status_at = h.at,
    delivered_at = d.at,
    bag_total = i.bag_total,
    subsidization_total = i.subsidization + o.delivery_subsidization,
    wyb_total = i.wyb_discount,
    has_bag = i.has_bag
FROM shop_orders x
LEFT JOIN LATERAL (
    SELECT s.status, s.at FROM shop_order_statuses s
    WHERE s.order_id = x.order_id ORDER BY s.position DESC LIMIT 1) h ON true
LEFT JOIN LATERAL (
    SELECT s.at FROM shop_order_statuses s
    WHERE s.order_id = x.order_id AND s.status IN ('DELIVERED', 'MANUAL_DELIVERED')
    ORDER BY s.position LIMIT 1) d ON true
CROSS JOIN LATERAL (
    SELECT coalesce(sum(it.unit_price * it.quantity), 0) AS bag_total,
           coalesce(sum(it.subsidization * it.quantity), 0) AS subsidization,
           coalesce(sum(it.wyb_discount * it.quantity), 0) AS wyb_discount,
           count(*) > 0 AS has_bag
    FROM shop_order_items it
    WHERE it.order_id = x.order_id AND it.has_bag) i
WHERE o.order_id = x.order_id AND ($1::bigint[] IS NULL OR x.order_id = ANY ($1))
