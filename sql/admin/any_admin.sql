-- Whether any admin exists. Served by the primary key.
SELECT EXISTS (SELECT FROM admins)
