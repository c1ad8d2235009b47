"""Fixtures of the webhook tests."""

from tests.training.conftest import api  # noqa: F401
