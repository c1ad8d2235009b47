-- Creates or updates riders, given as one JSON array of rider objects (rider_id, name, market,
-- phone, city, vehicle_type, nationality, pin_hash; IDs unique): PostgreSQL reads it faster
-- than asyncpg encodes eight text arrays, element by element, and as `json` (checked once,
-- read once by json_to_recordset) faster than as `jsonb` (built into a tree first). In
-- rider_id order, so that concurrent calls lock shared riders in the same order and cannot
-- deadlock.
-- Omitted optional fields arrive as NULL and keep the stored value. Language and status come
-- as JSON objects {riderId: value} of the riders that sent them: `excluded` holds a new
-- rider's defaults ('en', 'active'), so it cannot say whether an existing rider sent one, and
-- a keyed lookup keeps this one write a rider (a second UPDATE wrote every such rider twice).
-- A rider sent as stored is locked but not written (the WHERE of DO UPDATE: no new row
-- version, no index entries, `updated_at` kept), so a daily sync of mostly unchanged riders
-- costs little; it still counts as updated.
-- Returns one row: inserted (xmax = 0: the row is new), updated (the other riders given), and
-- rules_due, the riders the automatic rules must see: the new ones and those whose market,
-- vehicle type, nationality or status changes. Only those can newly match a rule (every path
-- change runs the rules for every rider itself); an update of names, phones and cities, the
-- common case, then skips the rules. `due` reads the riders as they were before this
-- statement, and it and the WHERE repeat the update's coalesces: `RETURNING old.*`, which
-- would say it once, is PostgreSQL 18's, and deployments run 15 (docs/backups.md). Served by
-- the primary key of riders.
WITH given AS (
    SELECT *
    FROM json_to_recordset($1::json)
         AS v(rider_id text, name text, market text, phone text, city text, vehicle_type text,
              nationality text, pin_hash text)
),
due AS (
    SELECT g.rider_id
    FROM given g
    LEFT JOIN riders r USING (rider_id)
    WHERE r.rider_id IS NULL
       OR (g.market, coalesce(g.vehicle_type, r.vehicle_type),
           coalesce(g.nationality, r.nationality), coalesce($3::jsonb ->> g.rider_id, r.status))
          IS DISTINCT FROM (r.market, r.vehicle_type, r.nationality, r.status)
),
saved AS (
    INSERT INTO riders AS r (rider_id, name, market, phone, city, vehicle_type, nationality,
                             language, status, pin_hash)
    SELECT v.rider_id, v.name, v.market, v.phone, v.city, v.vehicle_type, v.nationality,
           coalesce($2::jsonb ->> v.rider_id, 'en'), coalesce($3::jsonb ->> v.rider_id, 'active'),
           v.pin_hash
    FROM given v
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
    WHERE (r.name, r.market, r.phone, r.city, r.vehicle_type, r.nationality, r.language,
           r.status, r.pin_hash)
          IS DISTINCT FROM
          (excluded.name, excluded.market, coalesce(excluded.phone, r.phone),
           coalesce(excluded.city, r.city), coalesce(excluded.vehicle_type, r.vehicle_type),
           coalesce(excluded.nationality, r.nationality),
           coalesce($2::jsonb ->> excluded.rider_id, r.language),
           coalesce($3::jsonb ->> excluded.rider_id, r.status),
           coalesce(excluded.pin_hash, r.pin_hash))
    RETURNING r.xmax = 0 AS inserted
)
SELECT count(*) FILTER (WHERE inserted) AS inserted,
       (SELECT count(*) FROM given) - count(*) FILTER (WHERE inserted) AS updated,
       ARRAY(SELECT rider_id FROM due) AS rules_due
FROM saved
