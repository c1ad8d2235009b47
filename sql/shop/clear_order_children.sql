-- Removes the status history, items and exchange products of orders $1 before a reload
-- writes them again (primary keys lead with order_id).
WITH statuses AS (
    DELETE FROM shop_order_statuses WHERE order_id = ANY ($1::bigint[])
), items AS (
    DELETE FROM shop_order_items WHERE order_id = ANY ($1::bigint[])
)
DELETE FROM shop_exchange_products WHERE order_id = ANY ($1::bigint[])
