-- Sets the sent language and status (NULL: keep) of riders that upsert_riders.sql has just
-- updated and locked in this transaction, so it waits for no lock and cannot deadlock.
-- Returns nothing. Served by the primary key of riders.
UPDATE riders AS r
SET language = coalesce(v.language, r.language),
    status = coalesce(v.status, r.status)
FROM unnest($1::text[], $2::text[], $3::text[]) AS v(rider_id, language, status)
WHERE r.rider_id = v.rider_id
  AND (r.language, r.status) IS DISTINCT FROM
      (coalesce(v.language, r.language), coalesce(v.status, r.status))
