DROP INDEX riders_market_vehicle_type;
DROP INDEX riders_market_city_folded;
