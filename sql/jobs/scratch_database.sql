-- Returns the statements (create, drop) of the restore drill's scratch database $1, with the
-- name quoted by the server: CREATE DATABASE takes no bound parameter. From template0, so
-- nothing added to template1 collides with the archive's objects. Reads no table.
SELECT format('CREATE DATABASE %I TEMPLATE template0', $1::text) AS create_statement,
       format('DROP DATABASE IF EXISTS %I WITH (FORCE)', $1::text) AS drop_statement
