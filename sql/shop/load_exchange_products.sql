-- Inserts the products of the staged orders' exchange requests (position from 0).
INSERT INTO shop_exchange_products (order_id, position, product_id, wrong_size, warranty, lost,
                                    other, reason, at, images)
SELECT o.order_id, e.position - 1, e.product_id, e.wrong_size, e.warranty, e.lost, e.other,
       e.reason, e.at, ARRAY(SELECT json_array_elements_text(e.images))
FROM staged_orders o
CROSS JOIN LATERAL ROWS FROM (json_to_recordset(o.exchange_products::json) AS (
    product_id bigint, wrong_size boolean, warranty boolean, lost boolean, other boolean,
    reason text, "timestamp" timestamptz, images json)) WITH ORDINALITY
    e (product_id, wrong_size, warranty, lost, other, reason, at, images, position)
