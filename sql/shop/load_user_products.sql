-- Upserts units by id (primary key) and returns the ids of every user whose units changed:
-- the new owners and, for a unit that moved, its previous owner.
WITH previous AS (
    SELECT user_id FROM shop_user_products WHERE id = ANY ($1::bigint[])
), saved AS (
    INSERT INTO shop_user_products (id, user_id, product_id, order_id, assigned_at, channel)
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[],
                         $5::timestamptz[], $6::text[])
    ON CONFLICT (id) DO UPDATE
    SET user_id = excluded.user_id, product_id = excluded.product_id, order_id = excluded.order_id,
        assigned_at = excluded.assigned_at, channel = excluded.channel
    RETURNING user_id
)
SELECT coalesce(array_agg(DISTINCT user_id), '{}')
FROM (SELECT user_id FROM previous UNION ALL SELECT user_id FROM saved) changed
