from tests.messaging.fixtures import fake_provider, pool  # noqa: F401 - fixtures
