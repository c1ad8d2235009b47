-- Uses setup token hash $1 to create the first admin, an owner ($2 email, $3 name, $4 password hash),
-- only while the token is unused, less than 24 hours old, and no admin exists (the token row's lock makes a second use
-- of the same token wait, then find it used). Returns admin_id, or no row when refused.
-- Served by the primary keys.
WITH used AS (
    UPDATE admin_setup_tokens SET used_at = now()
    WHERE token_hash = $1 AND used_at IS NULL AND created_at > now() - interval '24 hours'
      AND NOT EXISTS (SELECT FROM admins)
    RETURNING token_hash
)
INSERT INTO admins (email, name, password_hash, role)
SELECT $2, $3, $4, 'owner' FROM used
RETURNING admin_id
