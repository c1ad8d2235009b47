-- The user with this email ($1, lower-cased by the caller as stored): id, ridehail_id,
-- agency_id. Unique index on email.
SELECT id, ridehail_id, agency_id FROM shop_users WHERE email = $1
