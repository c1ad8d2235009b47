-- Returns the server's major version number (18 for 18.6): pg_dump must be at least as new.
SELECT current_setting('server_version_num')::int / 10000
