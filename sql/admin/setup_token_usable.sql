-- Whether setup token hash $1 is unused, less than 24 hours old, and no admin exists yet.
-- Served by the primary key.
SELECT EXISTS (
    SELECT FROM admin_setup_tokens
    WHERE token_hash = $1 AND used_at IS NULL AND created_at > now() - interval '24 hours'
) AND NOT EXISTS (SELECT FROM admins)
