-- The user with this (lower-cased) email: id, ridehail_id, agency_id. Unique index on email.
SELECT id, ridehail_id, agency_id FROM shop_users WHERE email = lower($1)
