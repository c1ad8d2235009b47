-- The riders list's count (/admin/riders): how many riders match its filters ($1–$8, see
-- admin_matching_riders), counted no further than $9 (the page says "more than" past it).
-- Run planned per call; the function is inlined here (it is in FROM), so a scan of riders
-- that stops at the $9th match.
SELECT count(*)
FROM (SELECT FROM admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8) LIMIT $9) matches
