-- The riders list's count (/admin/riders): how many riders match its filters and the admin's
-- markets ($1–$10, see admin_matching_riders), counted no further than $11 (the page says "more than" past it).
-- Run planned per call; the function is inlined here (it is in FROM), so a scan of riders
-- that stops at the $11th match.
SELECT count(*)
FROM (SELECT FROM admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) LIMIT $11) matches
