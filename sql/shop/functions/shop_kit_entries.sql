-- Repeatable script (app/core/migrations.py): re-applied after the migrations on every start.
-- Kit entries of the given users (NULL: every user) as the API shows them: from the user's own
-- kit when per_user (FEATURE_USER_PRODUCT_KIT=1), else from their partner's kit; `complete`
-- when the owned units cover the required quantity. Inlined by the planner into its callers.
CREATE OR REPLACE FUNCTION shop_kit_entries(per_user boolean, user_ids bigint[])
RETURNS TABLE (user_id bigint, product_id bigint, quantity integer, complete boolean,
               entry json, entry_with_channel json)
LANGUAGE sql STABLE AS $$
    SELECT k.user_id, k.product_id, k.quantity, coalesce(o.owned, 0) >= k.quantity,
           json_build_object('user_id', k.user_id, 'product_id', k.product_id,
                             'quantity', k.quantity, 'mandatory', k.mandatory,
                             'product', json_build_object('id', p.id,
                                                          'product_name', p.product_name)),
           json_build_object('user_id', k.user_id, 'product_id', k.product_id,
                             'quantity', k.quantity, 'mandatory', k.mandatory,
                             'product', json_build_object('id', p.id,
                                                          'product_name', p.product_name),
                             'channel', o.channel)
    FROM (SELECT uk.user_id, uk.product_id, uk.quantity, uk.mandatory
          FROM shop_user_kits uk
          WHERE per_user AND (user_ids IS NULL OR uk.user_id = ANY (user_ids))
          UNION ALL
          SELECT u.id, pk.product_id, pk.quantity, pk.mandatory
          FROM shop_users u JOIN shop_partner_kits pk ON pk.partner_id = u.partner_id
          WHERE NOT per_user AND (user_ids IS NULL OR u.id = ANY (user_ids))) k
    JOIN shop_products p ON p.id = k.product_id
    LEFT JOIN shop_owned o ON o.user_id = k.user_id AND o.product_id = k.product_id
$$;
