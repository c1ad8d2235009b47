-- Creates or updates the staged riders, the last record of a riderId winning, in rider_id
-- order. A field not sent keeps the stored value (a new rider's language 'en', status
-- 'active'): the stored row is read beside the staged one, so the insert carries the final
-- values, and a rider whose values are those stored is not written (no new row version,
-- `updated_at` kept). Returns nothing. Served by the primary key of riders.
INSERT INTO riders AS r (rider_id, name, market, phone, city, vehicle_type, nationality,
                         language, status, pin_hash)
SELECT s.rider_id, s.name, s.market, coalesce(s.phone, e.phone), coalesce(s.city, e.city),
       coalesce(s.vehicle_type, e.vehicle_type), coalesce(s.nationality, e.nationality),
       coalesce(s.language, e.language, 'en'), coalesce(s.status, e.status, 'active'),
       coalesce(s.pin_hash, e.pin_hash)
FROM (SELECT DISTINCT ON (rider_id) * FROM staged_riders ORDER BY rider_id, ord DESC) s
LEFT JOIN riders e ON e.rider_id = s.rider_id
ORDER BY s.rider_id
ON CONFLICT (rider_id) DO UPDATE SET
    name = excluded.name,
    market = excluded.market,
    phone = excluded.phone,
    city = excluded.city,
    vehicle_type = excluded.vehicle_type,
    nationality = excluded.nationality,
    language = excluded.language,
    status = excluded.status,
    pin_hash = excluded.pin_hash,
    updated_at = now()
WHERE (r.name, r.market, r.phone, r.city, r.vehicle_type, r.nationality, r.language, r.status,
       r.pin_hash)
      IS DISTINCT FROM
      (excluded.name, excluded.market, excluded.phone, excluded.city, excluded.vehicle_type,
       excluded.nationality, excluded.language, excluded.status, excluded.pin_hash)
