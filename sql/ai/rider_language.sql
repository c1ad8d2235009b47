-- The language of rider $1 ('en', 'ar', 'ur' or 'ku'), or no row. Served by the primary key.
SELECT language FROM riders WHERE rider_id = $1
