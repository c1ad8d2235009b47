-- Locks user $1's row (primary key) for the rest of the transaction, so that concurrent kit
-- writes for one user run one after the other and each recounts the kit the other wrote.
SELECT id FROM shop_users WHERE id = $1 FOR UPDATE
