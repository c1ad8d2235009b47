-- Creates or updates riders from parallel arrays (one element a rider, IDs unique), in rider_id
-- order so that concurrent calls lock shared riders in the same order and cannot deadlock.
-- Omitted optional fields arrive as NULL and keep the stored value. Language and status come
-- as JSON objects {riderId: value} of the riders that sent them: `excluded` holds a new
-- rider's defaults ('en', 'active'), so it cannot say whether an existing rider sent one, and
-- a keyed lookup keeps this one write a rider (a second UPDATE wrote every such rider twice).
-- Returns rider_id and inserted (xmax = 0: the row is new) per rider. Served by the primary
-- key of riders.
INSERT INTO riders AS r (rider_id, name, market, phone, city, vehicle_type, nationality,
                         language, status, pin_hash)
SELECT v.rider_id, v.name, v.market, v.phone, v.city, v.vehicle_type, v.nationality,
       coalesce($9::jsonb ->> v.rider_id, 'en'), coalesce($10::jsonb ->> v.rider_id, 'active'),
       v.pin_hash
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
            $8::text[])
     AS v(rider_id, name, market, phone, city, vehicle_type, nationality, pin_hash)
ORDER BY v.rider_id
ON CONFLICT (rider_id) DO UPDATE SET
    name = excluded.name,
    market = excluded.market,
    phone = coalesce(excluded.phone, r.phone),
    city = coalesce(excluded.city, r.city),
    vehicle_type = coalesce(excluded.vehicle_type, r.vehicle_type),
    nationality = coalesce(excluded.nationality, r.nationality),
    language = coalesce($9::jsonb ->> excluded.rider_id, r.language),
    status = coalesce($10::jsonb ->> excluded.rider_id, r.status),
    pin_hash = coalesce(excluded.pin_hash, r.pin_hash),
    updated_at = now()
RETURNING r.rider_id, (r.xmax = 0) AS inserted
