-- The first staged user (ord, field, message) naming no partner, else the first whose email,
-- ridehail_id or agency_id belongs to another stored user, or no row (unique indexes on
-- shop_partners.name and on shop_users' email, ridehail_id and agency_id).
SELECT ord, field, message FROM (
    (SELECT 1 AS rank, ord, 'partner_name' AS field,
            format('unknown partner %L', partner_name) AS message
     FROM staged_users r
     WHERE NOT EXISTS (SELECT FROM shop_partners p WHERE p.name = r.partner_name)
     ORDER BY ord LIMIT 1)
    UNION ALL
    (SELECT 2, r.ord, c.field, c.field || ' already belongs to a different user'
     FROM staged_users r
     CROSS JOIN LATERAL (
         SELECT 'email' AS field FROM shop_users u WHERE u.email = r.email AND u.id <> r.id
         UNION ALL
         SELECT 'ridehail_id' FROM shop_users u
         WHERE u.ridehail_id = r.ridehail_id AND u.id <> r.id
         UNION ALL
         SELECT 'agency_id' FROM shop_users u WHERE u.agency_id = r.agency_id AND u.id <> r.id
         LIMIT 1) c
     ORDER BY r.ord LIMIT 1)
) unknown
ORDER BY rank, ord
LIMIT 1
