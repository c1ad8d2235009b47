-- The signatures removed from recorded links are not restored: they must not be kept.
ALTER TABLE riders DROP COLUMN links_revoked_at;
