-- The riders list (/admin/riders): up to $10 riders after rider ID $1 ('' for the first page),
-- in rider ID order, matching `q` when $2 is given (the rider ID equals $2, or the name is
-- ILIKE $3, or the reversed phone is LIKE $4; $3/$4 NULL when q cannot be a name/phone
-- search) and every filter given ($5 market, $6 status, $7 vehicle type, $8 city,
-- $9 nationality; NULL: any; $11 true: only riders with an open assignment past its deadline,
-- probed through assignments_once's rider_id prefix), of the admin's markets $12 (empty: every
-- market; docs/security.md). Run planned per call (app.core.database.planned_per_call), so
-- what is not given drops out of the plan.
-- Two disjoint branches: every rider (no q) or the name matches, as its own first page in
-- rider ID order, so that PostgreSQL may walk the primary key and stop after a page (a name
-- as common as "Ahmed" matches 1 rider in 20: a trigram bitmap would read them all); and the
-- few riders found by ID or phone whose name does not match. The filters are written in both
-- branches because a branch's LIMIT keeps them from being pushed down from outside.
-- Served by riders' primary key (order, keyset, q as an ID, and the filters, checked on the
-- walk), riders_name_trgm and riders_phone_suffix.
SELECT r.*
FROM (
    (SELECT rider_id, name, market, phone, city, vehicle_type, nationality, status
     FROM riders
     WHERE ($2::text IS NULL OR name ILIKE $3)
       AND rider_id > $1
       AND ($5::text IS NULL OR market = $5)
       AND ($6::text IS NULL OR status = $6)
       AND ($7::text IS NULL OR vehicle_type = $7)
       AND ($8::text IS NULL OR city = $8)
       AND ($9::text IS NULL OR nationality = $9)
      AND (cardinality($12::text[]) = 0 OR market = ANY ($12))
       AND (cardinality($12::text[]) = 0 OR market = ANY ($12))
       AND (NOT $11 OR rider_id IN (SELECT a.rider_id FROM assignments a
                                    WHERE a.completed_at IS NULL AND a.deadline < now()))
     ORDER BY rider_id
     LIMIT $10)
    UNION ALL
    SELECT rider_id, name, market, phone, city, vehicle_type, nationality, status
    FROM riders
    WHERE (rider_id = $2 OR reverse(phone) LIKE $4)
      AND ($3::text IS NULL OR name NOT ILIKE $3)
      AND rider_id > $1
      AND ($5::text IS NULL OR market = $5)
      AND ($6::text IS NULL OR status = $6)
      AND ($7::text IS NULL OR vehicle_type = $7)
      AND ($8::text IS NULL OR city = $8)
      AND ($9::text IS NULL OR nationality = $9)
      AND (cardinality($12::text[]) = 0 OR market = ANY ($12))
      AND (NOT $11 OR rider_id IN (SELECT a.rider_id FROM assignments a
                                   WHERE a.completed_at IS NULL AND a.deadline < now()))
) r
ORDER BY r.rider_id
LIMIT $10
