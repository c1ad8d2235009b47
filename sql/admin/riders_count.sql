-- The riders list's count (/admin/riders): how many riders admin_matching_riders finds for
-- $1–$11 (app.admin.search.matching_riders_parameters), counted no further than $12 (the page
-- says "more than" past it). Run planned per call; the function is inlined here, so a scan
-- that stops at the $12th match.
SELECT count(*)
FROM (SELECT FROM admin_matching_riders($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                                         $11) LIMIT $12) matches
