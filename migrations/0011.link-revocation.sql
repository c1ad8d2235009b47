-- One-tap links (issue 14): a leaked messages table or backup must sign no one in, and one
-- rider's links can be revoked.
-- depends: 0005.messaging

-- Links and rider sessions issued before this moment are refused (null: none revoked).
ALTER TABLE riders ADD COLUMN links_revoked_at timestamptz(3);

-- Links already recorded lose their signature (messages keep only what support needs).
UPDATE messages
SET link = regexp_replace(link, '(/t/[A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+', '\1.signature-removed', 'g'),
    body = regexp_replace(body, '(/t/[A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+', '\1.signature-removed', 'g')
WHERE link IS NOT NULL;
