-- Upserts the staged users by id (primary key; unique index on shop_partners.name), then
-- moves the id sequence past the largest id so that imports keep creating fresh ids.
WITH saved AS (
    INSERT INTO shop_users (id, email, ridehail_id, agency_id, first_name, last_name, partner_id,
                            active)
    SELECT r.id, lower(r.email), r.ridehail_id, r.agency_id, r.first_name, r.last_name, p.id,
           r.active
    FROM staged_users r
    JOIN shop_partners p ON p.name = r.partner_name
    ORDER BY r.ord
    ON CONFLICT (id) DO UPDATE
    SET email = excluded.email, ridehail_id = excluded.ridehail_id, agency_id = excluded.agency_id,
        first_name = excluded.first_name, last_name = excluded.last_name,
        partner_id = excluded.partner_id, active = excluded.active, updated_at = now()
    RETURNING id
)
SELECT setval(pg_get_serial_sequence('shop_users', 'id'),
              greatest((SELECT max(id) FROM saved), (SELECT max(id) FROM shop_users), 1))
