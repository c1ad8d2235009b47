-- Inserts the staged orders' items in their order (position from 0).
INSERT INTO shop_order_items (order_id, position, product_id, quantity, unit_price, has_bag,
                              subsidization, wyb_discount)
SELECT o.order_id, i.position - 1, i.product_id, i.quantity, i.unit_price, i.has_bag,
       i.subsidization, i.wyb_discount
FROM staged_orders o
CROSS JOIN LATERAL ROWS FROM (json_to_recordset(o.items::json) AS (
    product_id bigint, quantity integer, unit_price numeric, has_bag boolean,
    subsidization numeric, wyb_discount numeric)) WITH ORDINALITY
    i (product_id, quantity, unit_price, has_bag, subsidization, wyb_discount, position)
