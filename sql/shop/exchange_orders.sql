-- One page of exchange orders (orders with an exchange request) as a JSON array, ordered by
-- created_at then order_id, every field of the OpenAPI document's exchange order.
-- $1 tier_discount feature; $2 limit; $3 offset; filters (NULL: no filter):
-- $4/$5 created from/to, $6/$7 status_at from/to, $8/$9 delivered_at from/to (UNIX seconds),
-- $10 status group, $11 payment filter, $12 order_type, $13 shipment, $14 exchange_status,
-- $15 order_id, $16 driver_id, $17 tracking, $18 country, $19 city, $20 partner_name.
-- Every filter is a predicate on a column of shop_orders; the partial indexes
-- shop_orders_exchange_* (created, status_at, delivered, driver, partner, country, tracking
-- GIN) serve the selective ones and the created_at order, the others are checked while
-- walking it. Run with a custom plan per call, so that an absent filter drops out: without
-- filters the page's keys come from an index-only walk of shop_orders_exchange_created (a deep
-- page skips its leading orders without visiting the heap); only the page's own orders are
-- then fetched (by the primary key) and built.
WITH keys AS MATERIALIZED (
    SELECT o.order_id
    FROM shop_orders o
    WHERE o.exchange_status IS NOT NULL
      AND ($4::bigint IS NULL OR o.created_at >= to_timestamp($4))
      AND ($5::bigint IS NULL OR o.created_at < to_timestamp($5 + 1))
      AND ($6::bigint IS NULL OR o.status_at >= to_timestamp($6))
      AND ($7::bigint IS NULL OR o.status_at < to_timestamp($7 + 1))
      AND ($8::bigint IS NULL OR o.delivered_at >= to_timestamp($8))
      AND ($9::bigint IS NULL OR o.delivered_at < to_timestamp($9 + 1))
      AND ($10::text IS NULL OR o.status_group = $10)
      AND ($11::text IS NULL OR o.payment_filter = $11)
      AND ($12::text IS NULL OR o.order_type = $12)
      AND ($13::text IS NULL OR o.shipment = $13)
      AND ($14::text IS NULL OR o.exchange_status = $14)
      AND ($15::bigint IS NULL OR o.order_id = $15)
      AND ($16::text IS NULL OR o.driver_id = $16)
      AND ($17::text IS NULL OR o.tracking_numbers @> ARRAY[$17::text])
      AND ($18::text IS NULL OR o.shipping_country = lower($18))
      AND ($19::text IS NULL OR strpos(o.shipping_city, lower($19)) > 0)
      AND ($20::text IS NULL OR o.partner_id = (SELECT id FROM shop_partners WHERE name = $20))
    ORDER BY o.created_at, o.order_id
    LIMIT $2 OFFSET $3
), page AS MATERIALIZED (
    SELECT o.* FROM keys JOIN shop_orders o ON o.order_id = keys.order_id
)
SELECT coalesce(json_agg(json_build_object(
    'order_timestamp', floor(extract(epoch FROM o.created_at))::bigint,
    'driver_id', o.driver_id,
    'addresses', o.addresses,
    'status', o.status_group,
    'status_timestamp', floor(extract(epoch FROM o.status_at))::bigint,
    'status_history', (
        SELECT coalesce(json_agg(json_build_object(
                   'status_id', array_position(ARRAY['PROCESSING', 'PAID', 'FORWARDED', 'SENT',
                       'DELIVERED', 'MANUAL_DELIVERED', 'CANCELLED'], s.status),
                   'status', s.status,
                   'timestamp', floor(extract(epoch FROM s.at))::bigint) ORDER BY s.position),
                        '[]'::json)
        FROM shop_order_statuses s WHERE s.order_id = o.order_id),
    'tracking', coalesce(o.tracking_numbers[cardinality(o.tracking_numbers)], ''),
    'order_id', o.order_id::text,
    'ordered_products', (
        SELECT coalesce(json_agg(json_build_object(
                   'category_name', p.category_name,
                   'is_branded', p.is_branded,
                   'product_name', p.product_name,
                   'quantity', it.quantity,
                   'has_bag', it.has_bag) ORDER BY it.position), '[]'::json)
        FROM shop_order_items it JOIN shop_products p ON p.id = it.product_id
        WHERE it.order_id = o.order_id AND it.has_bag),
    'payment_status', CASE o.payment_plan
        WHEN 'one_time' THEN 'Paid in 1'
        WHEN 'pay_later' THEN 'Pay later'
        ELSE CASE o.payment_filter
            WHEN 'failed' THEN 'Failed'
            WHEN 'fully_paid' THEN 'Fully paid'
            ELSE 'In progress' END
            || CASE WHEN o.payment_filter = 'fully_paid' THEN ''
                    ELSE format(' (%s/%s)', o.installments_paid, o.installments_total) END
        END,
    'local_currency', o.currency,
    'paid_in_local_currency', round(o.bag_total, 2)::text,
    'paid_in_eur', CASE WHEN o.currency = 'EUR' THEN round(o.bag_total, 2)::text
                        WHEN r.eur_rate IS NULL THEN ''
                        ELSE round(o.bag_total * r.eur_rate, 2)::text END,
    'shipment', 'Standard',
    'delivery_failures', o.delivery_failures,
    'delivery_date', CASE WHEN o.delivered_at IS NULL THEN to_json(''::text)
                          ELSE to_json(floor(extract(epoch FROM o.delivered_at))::bigint) END,
    'subscription_status', o.subscription_status,
    'subscription_delay', CASE WHEN o.subscription_overdue THEN 'failed (30 day delay)' ELSE '' END,
    'loyalty_discount_percent', CASE WHEN $1 THEN coalesce(trim_scale(t.discount_percent)::text, '')
                                     ELSE '' END,
    'total_savings', CASE WHEN $1 THEN round(o.subsidization_total + o.wyb_total, 2)::text
                          ELSE '' END,
    'amount_paid_total', round(o.bag_total, 2)::text,
    'subsidization', round(o.subsidization_total, 2)::text,
    'wyb_discount', round(o.wyb_total, 2)::text,
    'ridehail_tier', CASE WHEN $1 THEN coalesce(t.name, o.ridehail_tier, '') ELSE '-' END,
    'has_bag', o.has_bag,
    'ridehail_id', coalesce(u.ridehail_id, ''),
    'partner_name', coalesce(pa.name, ''),
    'channel', (SELECT up.channel FROM shop_user_products up
                WHERE up.order_id = o.order_id ORDER BY up.id LIMIT 1),
    'user_id', CASE WHEN o.user_id IS NULL THEN to_json(''::text) ELSE to_json(o.user_id) END,
    'agency_id', coalesce(u.agency_id, ''),
    'exchange_status', initcap(o.exchange_status),
    'exchange_product_statuses', (
        SELECT coalesce(json_agg(json_build_object(
                   'product_name', p.product_name,
                   'wrong_size', e.wrong_size::integer,
                   'warranty', e.warranty::integer,
                   'lost', e.lost::integer,
                   'other', e.other::integer,
                   'status', e.reason,
                   'exchange_timestamp', floor(extract(epoch FROM e.at))::bigint,
                   'images', e.images) ORDER BY e.position), '[]'::json)
        FROM shop_exchange_products e JOIN shop_products p ON p.id = e.product_id
        WHERE e.order_id = o.order_id)
    ) ORDER BY o.created_at, o.order_id), '[]'::json)
FROM page o
LEFT JOIN shop_users u ON u.id = o.user_id
LEFT JOIN shop_partners pa ON pa.id = o.partner_id
LEFT JOIN shop_currency_rates r ON r.currency = o.currency
LEFT JOIN shop_tiers t ON t.ridehail_tier = o.ridehail_tier
