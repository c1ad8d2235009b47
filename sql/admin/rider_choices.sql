-- The values riders have for the assign form's vehicle type and city choices: kind
-- ('vehicle_type' or 'city') and value, each once, sorted. Two scans of riders (no index
-- serves them; about 30 ms each at 300,000 riders).
SELECT 'city' AS kind, city AS value FROM (SELECT DISTINCT city FROM riders WHERE city IS NOT NULL) c
UNION ALL
SELECT 'vehicle_type', vehicle_type
FROM (SELECT DISTINCT vehicle_type FROM riders WHERE vehicle_type IS NOT NULL) v
ORDER BY 1, 2
