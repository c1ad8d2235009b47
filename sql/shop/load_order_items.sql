-- Inserts order items in their order.
INSERT INTO shop_order_items (order_id, position, product_id, quantity, unit_price, has_bag,
                              subsidization, wyb_discount)
SELECT * FROM unnest($1::bigint[], $2::integer[], $3::bigint[], $4::integer[], $5::numeric[],
                     $6::boolean[], $7::numeric[], $8::numeric[])
