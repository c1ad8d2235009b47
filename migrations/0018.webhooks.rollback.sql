DROP TABLE webhook_deliveries;
DROP VIEW webhook_subscriptions;
DROP TABLE webhook_endpoints;
