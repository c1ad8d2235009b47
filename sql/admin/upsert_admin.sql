-- Creates admin ($1 email, $2 name, $3 password hash), or sets the password (and the name,
-- when $2 is not null) of the admin with that email whatever its case. Returns admin_id and
-- created (true for a new admin). Served by admins_email (the conflict target).
INSERT INTO admins (email, name, password_hash)
VALUES ($1, coalesce($2, split_part($1, '@', 1)), $3)
ON CONFLICT (lower(email)) DO UPDATE
SET password_hash = excluded.password_hash,
    name = coalesce($2, admins.name)
RETURNING admin_id, (xmax = 0) AS created
