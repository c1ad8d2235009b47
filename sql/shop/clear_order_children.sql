-- Removes the status history, items and exchange products of the staged orders before a reload
-- writes them again (primary keys lead with order_id).
WITH statuses AS (
    DELETE FROM shop_order_statuses WHERE order_id IN (SELECT order_id FROM staged_orders)
), items AS (
    DELETE FROM shop_order_items WHERE order_id IN (SELECT order_id FROM staged_orders)
)
DELETE FROM shop_exchange_products WHERE order_id IN (SELECT order_id FROM staged_orders)
