-- Takes the reveal pad of new API key $1 (id), once: its name and pad, and the pad is gone
-- for good; no row when it was taken already (or the key was revoked, or made by the command
-- line). Served by the primary key.
UPDATE api_keys AS k
SET reveal_pad = NULL
FROM (SELECT id, reveal_pad FROM api_keys WHERE id = $1 FOR UPDATE) AS before
WHERE k.id = before.id AND before.reveal_pad IS NOT NULL
RETURNING k.name, before.reveal_pad
