from tests.messaging.fake_provider import fake_provider  # noqa: F401 - a fixture
