-- Keeps why import $1 stopped midway ($2, with how far it got). Returns nothing. Served by the
-- primary key.
UPDATE rider_imports SET failure = $2 WHERE import_id = $1
