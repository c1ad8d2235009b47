-- Whether any API key of scope $1 is neither revoked nor expired: true or false. Read only
-- when a request's key was refused and no key of the scope is set in the environment (then
-- the API answers 503, disabled). A scan of the few keys there are.
SELECT EXISTS (
    SELECT FROM api_keys
    WHERE $1 = ANY (scopes) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
)
