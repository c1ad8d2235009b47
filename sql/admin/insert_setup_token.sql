-- Stores the hash $1 of a new one-time setup token. Returns nothing.
INSERT INTO admin_setup_tokens (token_hash) VALUES ($1)
