-- Whether user $1 exists (primary key).
SELECT EXISTS (SELECT FROM shop_users WHERE id = $1)
