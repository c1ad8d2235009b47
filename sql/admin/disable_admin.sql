-- Disables the admin with email $1 (any case) unless it is the last active owner (the panel
-- always keeps one). Returns admin_id, already (true when it was disabled before) and
-- last_owner (true when it is an owner and no other active admin is) as they were before, or
-- no row for an unknown email; disabled only when both are false. Served by admins_email; the
-- check scans admins (few).
WITH target AS (
    SELECT admin_id, disabled_at IS NOT NULL AS already,
           role = 'owner' AND NOT EXISTS (SELECT FROM admins o
                                          WHERE o.disabled_at IS NULL AND o.role = 'owner'
                                            AND o.admin_id <> a.admin_id) AS last_owner
    FROM admins a WHERE lower(email) = lower($1)
),
disabled AS (
    UPDATE admins SET disabled_at = now()
    WHERE admin_id = (SELECT admin_id FROM target WHERE NOT already AND NOT last_owner)
)
SELECT admin_id, already, last_owner FROM target
