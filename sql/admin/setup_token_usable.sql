-- Whether setup token hash $1 is unused and no admin exists yet. Served by the primary key.
SELECT EXISTS (
    SELECT FROM admin_setup_tokens WHERE token_hash = $1 AND used_at IS NULL
) AND NOT EXISTS (SELECT FROM admins)
