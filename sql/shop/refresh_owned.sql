-- Recounts shop_owned (units with assigned_at set, channel of the latest) for the given users
-- from shop_user_products (index shop_user_products_user); $1 NULL means every user.
WITH counted AS (
    SELECT user_id, product_id,
           count(*) FILTER (WHERE assigned_at IS NOT NULL) AS owned,
           (array_agg(channel ORDER BY assigned_at DESC, id DESC)
                FILTER (WHERE assigned_at IS NOT NULL))[1] AS channel
    FROM shop_user_products
    WHERE $1::bigint[] IS NULL OR user_id = ANY ($1)
    GROUP BY user_id, product_id
), saved AS (
    INSERT INTO shop_owned (user_id, product_id, owned, channel)
    SELECT user_id, product_id, owned, channel FROM counted
    ON CONFLICT (user_id, product_id) DO UPDATE
    SET owned = excluded.owned, channel = excluded.channel
)
DELETE FROM shop_owned o
WHERE ($1::bigint[] IS NULL OR o.user_id = ANY ($1))
  AND NOT EXISTS (SELECT FROM counted c WHERE c.user_id = o.user_id AND c.product_id = o.product_id)
