-- The users list's keys, walked index-only: a deep page skips its leading users in this index
-- (no heap visit), then fetches and builds only the page's users (sql/shop/users_page.sql).
-- The partial predicate is the list's own; INCLUDE holds what the partner and kit-emptiness
-- filters read, so those pages skip index-only too.
-- depends: 0003.shop

CREATE INDEX shop_users_listed ON shop_users (id)
    INCLUDE (partner_id, user_kit_owned, user_kit_owed, partner_kit_owned, partner_kit_owed)
    WHERE active AND (ridehail_id IS NOT NULL OR agency_id IS NOT NULL);
