DROP INDEX shop_users_listed;
