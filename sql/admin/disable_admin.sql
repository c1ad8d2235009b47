-- Disables the admin with email $1 (any case) unless it is the last active admin. Returns
-- admin_id, already (true when it was disabled before) and others (active admins besides it)
-- as they were before, or no row for an unknown email; disabled only when the answer has
-- already false and others > 0. Served by admins_email; the count scans admins (few).
WITH target AS (
    SELECT admin_id, disabled_at IS NOT NULL AS already,
           (SELECT count(*) FROM admins o
            WHERE o.disabled_at IS NULL AND o.admin_id <> a.admin_id) AS others
    FROM admins a WHERE lower(email) = lower($1)
),
disabled AS (
    UPDATE admins SET disabled_at = now()
    WHERE admin_id = (SELECT admin_id FROM target WHERE NOT already AND others > 0)
)
SELECT admin_id, already, others FROM target
