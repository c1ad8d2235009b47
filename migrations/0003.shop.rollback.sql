DROP FUNCTION shop_import_users(jsonb);
DROP FUNCTION shop_kit_entries(boolean, bigint[]);
DROP TABLE shop_owned, shop_user_products, shop_exchange_products, shop_order_items,
    shop_order_statuses, shop_orders, shop_tiers, shop_currency_rates, shop_user_kits,
    shop_users, shop_partner_kits, shop_product_partners, shop_products, shop_partners;
