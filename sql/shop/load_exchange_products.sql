-- Inserts the products of exchange requests; $10 holds each one's image URLs as a JSON text.
INSERT INTO shop_exchange_products (order_id, position, product_id, wrong_size, warranty, lost,
                                    other, reason, at, images)
SELECT r.order_id, r.position, r.product_id, r.wrong_size, r.warranty, r.lost, r.other, r.reason,
       r.at, ARRAY(SELECT json_array_elements_text(r.images::json))
FROM unnest($1::bigint[], $2::integer[], $3::bigint[], $4::boolean[], $5::boolean[],
            $6::boolean[], $7::boolean[], $8::text[], $9::timestamptz[], $10::text[])
     r (order_id, position, product_id, wrong_size, warranty, lost, other, reason, at, images)
