-- Recomputes the users' kit counters (entries owned in full / owed, for both kit modes) that
-- the users-list filters read; $1 NULL means every user. Reads through shop_kit_entries
-- (primary keys of shop_user_kits, shop_partner_kits and shop_owned).
WITH state AS (
    SELECT u.id,
           count(*) FILTER (WHERE e.per_user AND e.complete) AS user_owned,
           count(*) FILTER (WHERE e.per_user AND NOT e.complete) AS user_owed,
           count(*) FILTER (WHERE NOT e.per_user AND e.complete) AS partner_owned,
           count(*) FILTER (WHERE NOT e.per_user AND NOT e.complete) AS partner_owed
    FROM shop_users u
    LEFT JOIN (SELECT true AS per_user, user_id, complete FROM shop_kit_entries(true, $1)
               UNION ALL
               SELECT false, user_id, complete FROM shop_kit_entries(false, $1)) e
              ON e.user_id = u.id
    WHERE $1::bigint[] IS NULL OR u.id = ANY ($1)
    GROUP BY u.id
)
UPDATE shop_users u
SET user_kit_owned = s.user_owned, user_kit_owed = s.user_owed,
    partner_kit_owned = s.partner_owned, partner_kit_owed = s.partner_owed
FROM state s
WHERE u.id = s.id
  AND (u.user_kit_owned, u.user_kit_owed, u.partner_kit_owned, u.partner_kit_owed)
      IS DISTINCT FROM (s.user_owned, s.user_owed, s.partner_owned, s.partner_owed)
