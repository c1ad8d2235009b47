-- The values riders have for the assign form's vehicle type and city choices: kind
-- ('vehicle_type' or 'city') and value, each once, sorted. Reads riders_city (index only) and
-- scans riders for vehicle types.
SELECT 'city' AS kind, city AS value FROM (SELECT DISTINCT city FROM riders WHERE city IS NOT NULL) c
UNION ALL
SELECT 'vehicle_type', vehicle_type
FROM (SELECT DISTINCT vehicle_type FROM riders WHERE vehicle_type IS NOT NULL) v
ORDER BY 1, 2
