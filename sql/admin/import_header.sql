-- The header (CSV text) of import $1 and its rejected rows' count (`rejected`) if admin $2 made
-- it within the last day, else no row. Served by rider_imports' and rider_import_rejects'
-- primary keys.
SELECT header,
       (SELECT count(*) FROM rider_import_rejects j WHERE j.import_id = i.import_id) AS rejected
FROM rider_imports i
WHERE import_id = $1 AND admin_id = $2 AND created_at >= now() - interval '1 day'
