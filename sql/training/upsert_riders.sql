-- Creates or updates riders from parallel arrays (one element a rider, IDs unique), in rider_id
-- order so that concurrent calls lock shared riders in the same order and cannot deadlock.
-- Omitted optional fields arrive as NULL and keep the stored value. Language and status of
-- existing riders are set by update_rider_settings.sql (their NULL must not mean the default
-- here). Returns rider_id and inserted (xmax = 0: the row is new) per rider. Served by the
-- primary key of riders.
INSERT INTO riders AS r (rider_id, name, market, phone, city, vehicle_type, nationality,
                         language, status, pin_hash)
SELECT v.rider_id, v.name, v.market, v.phone, v.city, v.vehicle_type, v.nationality,
       coalesce(v.language, 'en'), coalesce(v.status, 'active'), v.pin_hash
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
            $8::text[], $9::text[], $10::text[])
     AS v(rider_id, name, market, phone, city, vehicle_type, nationality, language, status,
          pin_hash)
ORDER BY v.rider_id
ON CONFLICT (rider_id) DO UPDATE SET
    name = excluded.name,
    market = excluded.market,
    phone = coalesce(excluded.phone, r.phone),
    city = coalesce(excluded.city, r.city),
    vehicle_type = coalesce(excluded.vehicle_type, r.vehicle_type),
    nationality = coalesce(excluded.nationality, r.nationality),
    pin_hash = coalesce(excluded.pin_hash, r.pin_hash),
    updated_at = now()
RETURNING r.rider_id, (r.xmax = 0) AS inserted
