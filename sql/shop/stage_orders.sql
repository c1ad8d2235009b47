-- Creates (empty) the transaction's staging table of a file's orders, filled by COPY. JSON
-- texts: addresses, tracking numbers (latest last), delivery failures, and the children:
-- status history, items and exchange products (objects in their order). Temporary, dropped at
-- commit, without index: each statement reads it whole.
CREATE TEMPORARY TABLE staged_orders (
    ord integer, order_id bigint, created_at timestamptz, user_id bigint, partner_name text,
    driver_id text, ridehail_tier text, order_type text, shipment text, currency text,
    delivery_subsidization numeric, addresses text, payment_plan text, installments_total integer,
    installments_paid integer, payment_failed boolean, tracking text, subscription_status text,
    subscription_overdue boolean, exchange_status text, delivery_failures text, statuses text,
    items text, exchange_products text
) ON COMMIT DROP
