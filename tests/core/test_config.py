from pathlib import Path

import pytest

from app.core.config import ConfigError, Settings


def test_defaults_follow_design():
    settings = Settings.from_env({})
    assert settings.database_url is None
    assert settings.data_dir == Path("./var").resolve()
    assert (settings.host, settings.port) == ("0.0.0.0", 8080)
    assert settings.integration_api_key is None
    assert settings.feature_user_product_kit is True
    assert settings.feature_tier_discount is False
    assert settings.public_base_url == "http://localhost:8080"
    assert settings.backup_dir == settings.data_dir / "backups"
    assert settings.log_format == "json"
    assert settings.migrate_on_start is True
    assert settings.messaging_connected is False
    assert settings.session_secret_ok is False
    assert settings.database_pool_mode == "session"
    assert settings.database_replica_url is None


def test_every_variable_is_read(tmp_path):
    settings = Settings.from_env(
        {
            "DATABASE_URL": "postgresql://u:p@db:5432/app",
            "DATA_DIR": str(tmp_path),
            "HOST": "127.0.0.1",
            "PORT": "9000",
            "INTEGRATION_API_KEY": "k1",
            "CHECKS_API_KEY": "k2",
            "SHOP_IMPORT_API_KEY": "k3",
            "SHOP_ORDERS_API_KEY": "k4",
            "FEATURE_USER_PRODUCT_KIT": "0",
            "FEATURE_TIER_DISCOUNT": "1",
            "SESSION_SECRET": "0123456789abcdef",
            "PUBLIC_BASE_URL": "https://riders.example/",
            "MESSAGING_API_URL": "https://graph.example/v20.0",
            "MESSAGING_TOKEN": "t",
            "MESSAGING_PHONE_NUMBER_ID": "123",
            "BACKUP_DIR": str(tmp_path / "b"),
            "LOG_FORMAT": "console",
            "MIGRATE_ON_START": "0",
            "DATABASE_POOL_MODE": "transaction",
            "DATABASE_REPLICA_URL": "postgresql://u:p@replica:5432/app",
        }
    )
    assert settings.database_url == "postgresql://u:p@db:5432/app"
    assert settings.data_dir == tmp_path
    assert (settings.host, settings.port) == ("127.0.0.1", 9000)
    assert (settings.integration_api_key, settings.checks_api_key) == ("k1", "k2")
    assert (settings.shop_import_api_key, settings.shop_orders_api_key) == ("k3", "k4")
    assert settings.feature_user_product_kit is False
    assert settings.feature_tier_discount is True
    assert settings.session_secret_ok is True
    assert settings.public_base_url == "https://riders.example"
    assert settings.messaging_connected is True
    assert settings.backup_dir == tmp_path / "b"
    assert settings.log_format == "console"
    assert settings.migrate_on_start is False
    assert settings.database_pool_mode == "transaction"
    assert settings.database_replica_url == "postgresql://u:p@replica:5432/app"


def test_public_base_url_defaults_to_the_port():
    assert Settings.from_env({"PORT": "9001"}).public_base_url == "http://localhost:9001"


def test_blank_keys_mean_not_configured():
    assert Settings.from_env({"INTEGRATION_API_KEY": "  "}).integration_api_key is None


def test_short_session_secret_is_not_usable():
    assert Settings.from_env({"SESSION_SECRET": "short"}).session_secret_ok is False


def test_messaging_needs_all_three_variables():
    env = {"MESSAGING_API_URL": "https://x", "MESSAGING_TOKEN": "t"}
    assert Settings.from_env(env).messaging_connected is False


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({"PORT": "http"}, "PORT"),
        ({"PORT": "70000"}, "PORT"),
        ({"FEATURE_TIER_DISCOUNT": "yes"}, "FEATURE_TIER_DISCOUNT"),
        ({"FEATURE_USER_PRODUCT_KIT": "true"}, "FEATURE_USER_PRODUCT_KIT"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT"),
        ({"DATABASE_URL": "mysql://x"}, "DATABASE_URL"),
        ({"MIGRATE_ON_START": "no"}, "MIGRATE_ON_START"),
        ({"TRUSTED_PROXY_HOPS": "11"}, "TRUSTED_PROXY_HOPS"),
        ({"TRUSTED_PROXY_HOPS": "١"}, "TRUSTED_PROXY_HOPS"),
        ({"TRUSTED_PROXY_HOPS": "-1"}, "TRUSTED_PROXY_HOPS"),
        ({"DATABASE_POOL_MODE": "statement"}, "DATABASE_POOL_MODE"),
        ({"DATABASE_REPLICA_URL": "replica:5432"}, "DATABASE_REPLICA_URL"),
        ({"AUDIT_RETENTION_DAYS": "0"}, "AUDIT_RETENTION_DAYS"),
        ({"AUDIT_RETENTION_DAYS": "36501"}, "AUDIT_RETENTION_DAYS"),
        ({"AUDIT_RETENTION_DAYS": "٣٠"}, "AUDIT_RETENTION_DAYS"),
    ],
)
def test_bad_settings_name_the_variable(env, names):
    with pytest.raises(ConfigError, match=names):
        Settings.from_env(env)


def test_a_short_pin_pepper_is_a_configuration_error():
    with pytest.raises(ConfigError, match="PIN_PEPPER"):
        Settings.from_env({"PIN_PEPPER": "short"})


def test_memory_limit_defaults_to_1024_mb_and_0_turns_it_off():
    assert Settings.from_env({}).memory_limit_mb == 1024
    assert Settings.from_env({"MEMORY_LIMIT_MB": "0"}).memory_limit_mb == 0
    assert Settings.from_env({"MEMORY_LIMIT_MB": "65536"}).memory_limit_mb == 65536
    assert Settings.from_env({"METRICS_TOKEN": "x" * 16}).metrics_token == "x" * 16


def test_audit_events_are_kept_365_days_unless_set():
    assert Settings.from_env({}).audit_retention_days == 365
    assert Settings.from_env({"AUDIT_RETENTION_DAYS": "30"}).audit_retention_days == 30
