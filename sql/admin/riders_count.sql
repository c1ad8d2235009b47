-- The riders list's count (/admin/riders): how many riders match its filters ($1–$9, see
-- admin_matching_riders), counted no further than $10 (the page says "more than" past it).
-- Run planned per call; the function is inlined here (it is in FROM), so a scan of riders
-- that stops at the $10th match.
SELECT count(*)
FROM (SELECT FROM admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8, $9) LIMIT $10) matches
