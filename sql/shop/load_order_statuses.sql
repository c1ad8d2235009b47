-- Inserts status history entries (order, position oldest first, internal status, time).
INSERT INTO shop_order_statuses (order_id, position, status, at)
SELECT * FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::timestamptz[])
