-- Admin $1: admin_id, email, name, role, markets (empty: every market). Served by the primary
-- key.
SELECT admin_id, email, name, role, markets FROM admins WHERE admin_id = $1
