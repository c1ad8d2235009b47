-- Admin $1: admin_id, email, name. Served by the primary key.
SELECT admin_id, email, name FROM admins WHERE admin_id = $1
