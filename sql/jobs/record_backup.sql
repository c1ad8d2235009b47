-- Records archive $1 written: $2 bytes, in $3 seconds. Returns nothing. Served by the primary
-- key (a second run-job of the same second keeps the first row).
INSERT INTO backups (archive, bytes, seconds) VALUES ($1, $2, $3)
ON CONFLICT (archive) DO NOTHING
