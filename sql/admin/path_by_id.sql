-- One path for its form: its fields and its course ids in path order; no row for an unknown
-- path. Served by the primary keys of paths and path_courses.
SELECT p.path_id, p.name, p.active, p.days_to_complete, p.rule, p.flag_types, p.markets,
       p.vehicle_types, p.nationalities,
       ARRAY(SELECT pc.course_id FROM path_courses pc
             WHERE pc.path_id = p.path_id ORDER BY pc.position) AS courses
FROM paths p
WHERE p.path_id = $1
