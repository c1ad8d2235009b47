-- The first record (1-based ordinal, field) whose email, ridehail_id or agency_id belongs to
-- another existing user; records are ($1 id, $2 email, $3 ridehail_id, $4 agency_id).
-- Unique indexes on email, ridehail_id and agency_id.
SELECT r.ord, CASE WHEN u.email = r.email THEN 'email'
                   WHEN u.ridehail_id = r.ridehail_id THEN 'ridehail_id'
                   ELSE 'agency_id' END AS field
FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY
     r (id, email, ridehail_id, agency_id, ord)
JOIN shop_users u ON u.id <> r.id
 AND (u.email = r.email OR u.ridehail_id = r.ridehail_id OR u.agency_id = r.agency_id)
ORDER BY r.ord
LIMIT 1
