-- The admin with email $1 whatever its case: admin_id, password_hash, disabled_at; or no row.
-- Served by admins_email.
SELECT admin_id, password_hash, disabled_at FROM admins WHERE lower(email) = lower($1)
