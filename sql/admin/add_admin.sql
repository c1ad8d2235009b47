-- Adds admin ($1 email, $2 name, $3 password hash, $4 role, $5 markets: empty for every
-- market) unless one with that email (any case) exists. Returns admin_id, or no row when the
-- email is taken. Served by admins_email.
INSERT INTO admins (email, name, password_hash, role, markets) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (lower(email)) DO NOTHING
RETURNING admin_id
