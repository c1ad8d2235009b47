-- Every admin: email, name, role, markets (empty: every market), created_at, disabled_at;
-- active ones first, then by email. Admins are few: scanned.
SELECT email, name, role, markets, created_at, disabled_at
FROM admins ORDER BY disabled_at IS NOT NULL, lower(email)
