-- How many active admins are owners (the panel always keeps one). Admins are few: scanned.
SELECT count(*) FROM admins WHERE role = 'owner' AND disabled_at IS NULL
