-- Creates or updates riders, given as one JSON array of rider objects (rider_id, name, market,
-- phone, city, vehicle_type, nationality, pin_hash; IDs unique): PostgreSQL reads it faster
-- than asyncpg encodes eight text arrays, element by element. In rider_id order, so that
-- concurrent calls lock shared riders in the same order and cannot deadlock.
-- Omitted optional fields arrive as NULL and keep the stored value. Language and status come
-- as JSON objects {riderId: value} of the riders that sent them: `excluded` holds a new
-- rider's defaults ('en', 'active'), so it cannot say whether an existing rider sent one, and
-- a keyed lookup keeps this one write a rider (a second UPDATE wrote every such rider twice).
-- Returns one row: inserted and updated (xmax = 0: the row is new). Served by the primary key
-- of riders.
WITH saved AS (
    INSERT INTO riders AS r (rider_id, name, market, phone, city, vehicle_type, nationality,
                             language, status, pin_hash)
    SELECT v.rider_id, v.name, v.market, v.phone, v.city, v.vehicle_type, v.nationality,
           coalesce($2::jsonb ->> v.rider_id, 'en'), coalesce($3::jsonb ->> v.rider_id, 'active'),
           v.pin_hash
    FROM jsonb_to_recordset($1::jsonb)
         AS v(rider_id text, name text, market text, phone text, city text, vehicle_type text,
              nationality text, pin_hash text)
    ORDER BY v.rider_id
    ON CONFLICT (rider_id) DO UPDATE SET
        name = excluded.name,
        market = excluded.market,
        phone = coalesce(excluded.phone, r.phone),
        city = coalesce(excluded.city, r.city),
        vehicle_type = coalesce(excluded.vehicle_type, r.vehicle_type),
        nationality = coalesce(excluded.nationality, r.nationality),
        language = coalesce($2::jsonb ->> excluded.rider_id, r.language),
        status = coalesce($3::jsonb ->> excluded.rider_id, r.status),
        pin_hash = coalesce(excluded.pin_hash, r.pin_hash),
        updated_at = now()
    RETURNING r.xmax = 0 AS inserted
)
SELECT count(*) FILTER (WHERE inserted) AS inserted, count(*) FILTER (WHERE NOT inserted) AS updated
FROM saved
