"""Webhooks (docs/webhooks.md): events written with the change that made them, delivered signed
(Standard Webhooks) by any web process. An engine: it serves no URL; the endpoints are
managed on the admin panel's webhooks pages."""
