-- Upserts the staged orders by order_id (primary key; unique index on shop_partners.name).
INSERT INTO shop_orders (order_id, created_at, user_id, partner_id, driver_id, ridehail_tier,
                         order_type, shipment, currency, delivery_subsidization, addresses,
                         payment_plan, installments_total, installments_paid, payment_failed,
                         tracking_numbers, subscription_status, subscription_overdue,
                         exchange_status, delivery_failures)
SELECT r.order_id, r.created_at, r.user_id, p.id, r.driver_id, r.ridehail_tier, r.order_type,
       r.shipment, r.currency, r.delivery_subsidization, r.addresses::json, r.payment_plan,
       r.installments_total, r.installments_paid, r.payment_failed,
       ARRAY(SELECT json_array_elements_text(r.tracking::json)), r.subscription_status,
       r.subscription_overdue, r.exchange_status, r.delivery_failures::json
FROM staged_orders r
LEFT JOIN shop_partners p ON p.name = r.partner_name
ORDER BY r.ord
ON CONFLICT (order_id) DO UPDATE
SET created_at = excluded.created_at, user_id = excluded.user_id, partner_id = excluded.partner_id,
    driver_id = excluded.driver_id, ridehail_tier = excluded.ridehail_tier,
    order_type = excluded.order_type, shipment = excluded.shipment, currency = excluded.currency,
    delivery_subsidization = excluded.delivery_subsidization, addresses = excluded.addresses,
    payment_plan = excluded.payment_plan, installments_total = excluded.installments_total,
    installments_paid = excluded.installments_paid, payment_failed = excluded.payment_failed,
    tracking_numbers = excluded.tracking_numbers,
    subscription_status = excluded.subscription_status,
    subscription_overdue = excluded.subscription_overdue,
    exchange_status = excluded.exchange_status,
    delivery_failures = excluded.delivery_failures
