-- Creates admin ($1 email, $2 name, $3 password hash, $4 role, $5 markets), or sets the
-- password (and the name, role and markets, each when not null) of the admin with that email
-- whatever its case. A new admin without $4 is an owner when no admin exists yet, else an
-- editor; without $5 they see every market. Returns admin_id, created (true for a new admin),
-- role and markets, and old_role and old_markets as they were before (the new ones for a new
-- admin). Served by
-- admins_email (the conflict target).
WITH before AS (
    SELECT role, markets FROM admins WHERE lower(email) = lower($1)
)
INSERT INTO admins AS a (email, name, password_hash, role, markets)
VALUES ($1, coalesce($2, split_part($1, '@', 1)), $3,
        coalesce($4::text, CASE WHEN EXISTS (SELECT FROM admins) THEN 'editor' ELSE 'owner' END),
        coalesce($5::text[], '{}'))
ON CONFLICT (lower(email)) DO UPDATE
SET password_hash = excluded.password_hash,
    name = coalesce($2, a.name),
    role = coalesce($4, a.role),
    markets = coalesce($5, a.markets)
RETURNING admin_id, (xmax = 0) AS created, a.role, a.markets,
          coalesce((SELECT role FROM before), a.role) AS old_role,
          coalesce((SELECT markets FROM before), a.markets) AS old_markets
