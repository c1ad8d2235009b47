-- The completions export, one part: rows $13 + 1 onward, at most $14, of the passed records
-- of the riders that match the riders list's filters ($1–$11, see admin_matching_riders; $12:
-- whether any filter is given), by rider and course. Returns each row as one CSV line with
-- its CRLF (`line`): the API's completion record fields in its order, free text through
-- admin_csv_text (NULL is an empty cell there, in admin_utc_text and for a score; the other
-- columns are NOT NULL). Read through a cursor: course_results' primary key merged with
-- riders' (both in rider order, so rows stream from the first one and nothing is sorted), the
-- course title memoized from courses' primary key. (In the API's feed order it took a sort
-- of every record, or a rider lookup per record: 2.2 s for 500,000 records, not 1.1 s.)
SELECT admin_csv_text(cr.rider_id) || ',' || r.market || ',' || cr.course_id::text || ','
       || admin_csv_text(c.title) || ',' || cr.language || ','
       || admin_utc_text(cr.started_at) || ',' || admin_utc_text(cr.completed_at) || ','
       || coalesce(cr.score::text, '') || ',' || cr.attempts::text || ','
       || cr.time_spent_seconds::text || ',' || cr.proof_code || E'\r\n' AS line
FROM course_results cr
JOIN riders r ON r.rider_id = cr.rider_id
LEFT JOIN courses c ON c.course_id = cr.course_id
WHERE cr.completed_at IS NOT NULL
  AND (NOT $12::boolean
       OR cr.rider_id IN (SELECT m.rider_id
                   FROM admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                                         $11) m))
ORDER BY cr.rider_id, cr.course_id
OFFSET $13
LIMIT $14
