-- Adds admin ($1 email, $2 name, $3 password hash) unless one with that email (any case)
-- exists. Returns admin_id, or no row when the email is taken. Served by admins_email.
INSERT INTO admins (email, name, password_hash) VALUES ($1, $2, $3)
ON CONFLICT (lower(email)) DO NOTHING
RETURNING admin_id
