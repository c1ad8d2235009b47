-- Whether product $1 exists and is not deleted (primary key).
SELECT EXISTS (SELECT FROM shop_products WHERE id = $1 AND NOT deleted)
