-- The admin with email $1 whatever its case, as sign-in sees them. One row: subject, the email
-- folded by the very expression the lookup matches with (the sign-in limits count it, so they
-- and the lookup can never disagree on which spellings are one account); admin_id,
-- password_hash and disabled_at, null when no admin matches. Served by admins_email.
SELECT folded.subject, admins.admin_id, admins.password_hash, admins.disabled_at
FROM (SELECT lower($1::text) AS subject) AS folded
LEFT JOIN admins ON lower(admins.email) = folded.subject
