-- Sets the role ($2) and markets ($3: empty for every market) of the admin with email $1
-- (any case) unless that takes the owner role from the last active owner (the panel always
-- keeps one). Returns admin_id, the role and markets as they were, and last_owner (true when
-- refused), or no row for an unknown email. Served by admins_email; the check scans admins
-- (few).
WITH target AS (
    SELECT admin_id, role, markets,
           role = 'owner' AND $2 <> 'owner' AND disabled_at IS NULL
           AND NOT EXISTS (SELECT FROM admins o
                           WHERE o.disabled_at IS NULL AND o.role = 'owner'
                             AND o.admin_id <> a.admin_id) AS last_owner
    FROM admins a WHERE lower(email) = lower($1)
),
changed AS (
    UPDATE admins SET role = $2, markets = $3
    WHERE admin_id = (SELECT admin_id FROM target WHERE NOT last_owner)
)
SELECT admin_id, role, markets, last_owner FROM target
