-- Every admin: email, name, created_at, disabled_at; active ones first, then by email.
-- Admins are few: scanned.
SELECT email, name, created_at, disabled_at
FROM admins ORDER BY disabled_at IS NOT NULL, lower(email)
