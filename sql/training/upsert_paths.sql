-- load-data `paths`: creates or updates learning paths from a JSON array of path records
-- (docs/data-load.md; the filter arrays become text[]). Returns nothing. Served by paths' key.
INSERT INTO paths (path_id, name, active, days_to_complete, rule, flag_types, markets,
                   vehicle_types, nationalities)
SELECT id, name, active, days_to_complete, rule, flag_types, markets, vehicle_types,
       nationalities
FROM jsonb_to_recordset($1::jsonb)
     AS p(id uuid, name text, active boolean, days_to_complete integer, rule text,
          flag_types text[], markets text[], vehicle_types text[], nationalities text[])
ON CONFLICT (path_id) DO UPDATE SET
    name = excluded.name, active = excluded.active,
    days_to_complete = excluded.days_to_complete, rule = excluded.rule,
    flag_types = excluded.flag_types, markets = excluded.markets,
    vehicle_types = excluded.vehicle_types, nationalities = excluded.nationalities
