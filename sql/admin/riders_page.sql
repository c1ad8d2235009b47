-- The riders list (/admin/riders): up to $13 riders after rider ID $1 ('' for the first page),
-- in rider ID order, of those admin_matching_riders finds for $2–$12 (the list's search text,
-- filters and the admin's markets; see app.admin.search.matching_riders_parameters), taking
-- its two parts itself: the first ordered and cut to a page in its own branch, because a
-- LIMIT over the union of the parts is planned as a sort of every match. Each rider comes
-- with its training state: open, completed and overdue (open past the deadline) assignments.
-- Run planned per call (app.core.database.planned_per_call), so what is not given drops out
-- of the plan. Served by riders' primary key (the first part walked in rider ID order,
-- stopping after the page), riders_name_trgm, riders_phone_suffix,
-- riders_market_city_folded, and assignments_once's rider_id prefix for the state.
SELECT r.rider_id, r.name, r.market, r.phone, r.city, r.vehicle_type, r.nationality, r.status,
       t.open, t.completed, t.overdue
FROM ((SELECT m.*
       FROM admin_matching_riders_part(false, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                                      $11, $12) m
       WHERE m.rider_id > $1
       ORDER BY m.rider_id
       LIMIT $13)
      UNION ALL
      SELECT m.*
      FROM admin_matching_riders_part(true, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                                      $11, $12) m
      WHERE m.rider_id > $1) r
CROSS JOIN LATERAL (
    SELECT count(*) FILTER (WHERE a.completed_at IS NULL) AS open,
           count(*) FILTER (WHERE a.completed_at IS NOT NULL) AS completed,
           count(*) FILTER (WHERE a.completed_at IS NULL AND a.deadline < now()) AS overdue
    FROM assignments a
    WHERE a.rider_id = r.rider_id
) t
ORDER BY r.rider_id
LIMIT $13
