"""Settings read once from the environment (docs/configuration.md)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit


class ConfigError(Exception):
    """A setting the operator must fix; the message names the variable."""


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if raw in ("1", "0"):
        return raw == "1"
    raise ConfigError(f"{name} must be 1 or 0, got {raw!r}")


def _port(env: Mapping[str, str]) -> int:
    raw = env.get("PORT", "").strip() or "8080"
    if not (raw.isascii() and raw.isdigit()) or not 0 < int(raw) < 65536:
        raise ConfigError(f"PORT must be a number from 1 to 65535, got {raw!r}")
    return int(raw)


def _pin_pepper(env: Mapping[str, str]) -> str | None:
    pepper = _optional(env, "PIN_PEPPER")
    if pepper is not None and len(pepper) < 16:
        raise ConfigError("PIN_PEPPER must be at least 16 characters")
    return pepper


LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


def _secure_url(name: str, url: str) -> str:
    """An https URL, or plain http only to this machine (a local model server, a test double):
    a secret travels with every request to it."""
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return url
    if parts.scheme == "http" and parts.hostname in LOCAL_HOSTS:
        return url
    raise ConfigError(
        f"{name} must be an https:// URL (http:// only for localhost), "
        f"got {parts.scheme or 'no'} scheme"
    )


def _messaging_url(env: Mapping[str, str]) -> str | None:
    """MESSAGING_API_URL: the provider's token travels with every request."""
    url = _optional(env, "MESSAGING_API_URL")
    return None if url is None else _secure_url("MESSAGING_API_URL", url)


def _ai_base_url(env: Mapping[str, str]) -> str:
    """AI_BASE_URL (default OpenAI's): the API key travels with every request."""
    url = (_optional(env, "AI_BASE_URL") or "https://api.openai.com/v1").rstrip("/")
    return _secure_url("AI_BASE_URL", url)


def _web_concurrency(env: Mapping[str, str]) -> int:
    raw = env.get("WEB_CONCURRENCY", "").strip() or "1"
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 64:
        raise ConfigError(f"WEB_CONCURRENCY must be a number from 1 to 64, got {raw!r}")
    return int(raw)


def _trusted_proxy_hops(env: Mapping[str, str]) -> int:
    raw = env.get("TRUSTED_PROXY_HOPS", "").strip() or "0"
    if not (raw.isascii() and raw.isdigit()) or not 0 <= int(raw) <= 10:
        raise ConfigError(f"TRUSTED_PROXY_HOPS must be a number from 0 to 10, got {raw!r}")
    return int(raw)


POOL_MODES = ("session", "transaction")


def _pool_mode(env: Mapping[str, str]) -> str:
    """DATABASE_POOL_MODE: `transaction` when a pooler in transaction mode (PgBouncer, a
    managed database's pooler) stands between the service and PostgreSQL."""
    mode = env.get("DATABASE_POOL_MODE", "").strip() or "session"
    if mode not in POOL_MODES:
        raise ConfigError(f"DATABASE_POOL_MODE must be session or transaction, got {mode!r}")
    return mode


def _database_url(env: Mapping[str, str], name: str) -> str | None:
    url = _optional(env, name)
    if url and not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError(f"{name} must start with postgresql://")
    return url


def _metrics_token(env: Mapping[str, str]) -> str | None:
    token = _optional(env, "METRICS_TOKEN")
    if token is not None and len(token) < 16:
        raise ConfigError("METRICS_TOKEN must be at least 16 characters")
    return token


MAX_MEMORY_LIMIT_MB = 65536


def _memory_limit_mb(env: Mapping[str, str]) -> int:
    raw = env.get("MEMORY_LIMIT_MB", "").strip() or "1024"
    if not (raw.isascii() and raw.isdigit()) or not 0 <= int(raw) <= MAX_MEMORY_LIMIT_MB:
        raise ConfigError(
            f"MEMORY_LIMIT_MB must be a whole number from 0 (off) to {MAX_MEMORY_LIMIT_MB},"
            f" got {raw!r}"
        )
    return int(raw)


MAX_AUDIT_RETENTION_DAYS = 36500


def _audit_retention_days(env: Mapping[str, str]) -> int:
    raw = env.get("AUDIT_RETENTION_DAYS", "").strip() or "365"
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= MAX_AUDIT_RETENTION_DAYS:
        raise ConfigError(
            f"AUDIT_RETENTION_DAYS must be a whole number from 1 to {MAX_AUDIT_RETENTION_DAYS},"
            f" got {raw!r}"
        )
    return int(raw)


@dataclass(frozen=True)
class S3Location:
    """Where off-site backups go (BACKUP_S3_URL). What the URL leaves out (endpoint, region,
    credentials) the S3 client reads from the AWS_* variables every AWS SDK reads."""

    bucket: str
    # "" or ending in "/": object names are PREFIX + the archive's name.
    prefix: str
    endpoint: str | None
    region: str | None
    access_key: str | None
    secret_key: str | None

    def __str__(self) -> str:
        # For log lines and messages: never the credentials.
        return f"s3://{self.bucket}/{self.prefix}"


def _backup_s3(env: Mapping[str, str]) -> S3Location | None:
    """BACKUP_S3_URL: s3://[KEY:SECRET@]BUCKET[/PREFIX][?endpoint=URL&region=REGION]."""
    url = _optional(env, "BACKUP_S3_URL")
    if url is None:
        return None
    parts = urlsplit(url)
    bucket = parts.hostname or ""
    if parts.scheme != "s3" or not bucket:
        raise ConfigError("BACKUP_S3_URL must be s3://BUCKET/PREFIX")
    query = {name: values[-1] for name, values in parse_qs(parts.query).items()}
    unknown = sorted(set(query) - {"endpoint", "region"})
    if unknown:
        raise ConfigError(f"BACKUP_S3_URL: unknown parameter {unknown[0]!r} (endpoint, region)")
    endpoint = query.get("endpoint")
    prefix = parts.path.strip("/")
    return S3Location(
        bucket=bucket,
        prefix=f"{prefix}/" if prefix else "",
        # The store's keys travel with every request to it.
        endpoint=None if endpoint is None else _secure_url("BACKUP_S3_URL's endpoint", endpoint),
        region=query.get("region"),
        access_key=unquote(parts.username) if parts.username else None,
        secret_key=unquote(parts.password) if parts.password else None,
    )


def _backup_dir(env: Mapping[str, str], data_dir: Path, s3: S3Location | None) -> Path | None:
    """BACKUP_DIR; set to an empty value, no local copy is kept (the archives go to the S3
    store only), which needs BACKUP_S3_URL."""
    if "BACKUP_DIR" not in env:
        return data_dir / "backups"
    raw = env["BACKUP_DIR"].strip()
    if raw:
        return Path(raw).resolve()
    if s3 is None:
        raise ConfigError(
            "BACKUP_DIR is empty (no local copy) and BACKUP_S3_URL is unset: backups would go"
            " nowhere"
        )
    return None


def _optional(env: Mapping[str, str], name: str) -> str | None:
    """An unset or blank variable means "not configured"."""
    value = env.get(name, "").strip()
    return value or None


@dataclass(frozen=True)
class Settings:
    database_url: str | None
    # "session" (a direct connection or a session pooler) or "transaction" (docs/scale.md).
    database_pool_mode: str
    # The same database without the pooler, for what needs a session of its own (pg_dump,
    # migrations); None: DATABASE_URL is one.
    database_direct_url: str | None
    # A streaming read replica for the heavy reads that tolerate lag (docs/scale.md), or None.
    database_replica_url: str | None
    data_dir: Path
    host: str
    port: int
    web_concurrency: int
    # Proxies in front of the service that each append the address they saw to
    # X-Forwarded-For (a PaaS router: 1); 0: the TCP peer is the client.
    trusted_proxy_hops: int
    # A web process whose resident memory passes this many MB is replaced (0: never).
    memory_limit_mb: int
    metrics_token: str | None
    integration_api_key: str | None
    checks_api_key: str | None
    shop_import_api_key: str | None
    shop_orders_api_key: str | None
    feature_user_product_kit: bool
    feature_tier_discount: bool
    session_secret: str | None
    pin_pepper: str | None
    public_base_url: str
    messaging_api_url: str | None
    messaging_token: str | None
    messaging_phone_number_id: str | None
    # None: no local copy (BACKUP_DIR set empty), the archives go to backup_s3 only.
    backup_dir: Path | None
    backup_s3: S3Location | None
    log_format: str
    migrate_on_start: bool
    ai_base_url: str
    ai_api_key: str | None
    ai_model: str | None
    # Webhooks may go to private and loopback addresses, over plain http too (development and
    # tests); off, only to public addresses over https (docs/webhooks.md#addresses).
    webhooks_allow_private: bool
    # Audit events older than this many days are deleted by housekeeping.
    audit_retention_days: int

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        data_dir = Path(env.get("DATA_DIR", "").strip() or "./var").resolve()
        port = _port(env)
        log_format = env.get("LOG_FORMAT", "").strip() or "json"
        if log_format not in ("json", "console"):
            raise ConfigError(f"LOG_FORMAT must be json or console, got {log_format!r}")
        backup_s3 = _backup_s3(env)
        return cls(
            database_url=_database_url(env, "DATABASE_URL"),
            database_pool_mode=_pool_mode(env),
            database_direct_url=_database_url(env, "DATABASE_DIRECT_URL"),
            database_replica_url=_database_url(env, "DATABASE_REPLICA_URL"),
            data_dir=data_dir,
            host=env.get("HOST", "").strip() or "0.0.0.0",
            port=port,
            web_concurrency=_web_concurrency(env),
            trusted_proxy_hops=_trusted_proxy_hops(env),
            memory_limit_mb=_memory_limit_mb(env),
            metrics_token=_metrics_token(env),
            integration_api_key=_optional(env, "INTEGRATION_API_KEY"),
            checks_api_key=_optional(env, "CHECKS_API_KEY"),
            shop_import_api_key=_optional(env, "SHOP_IMPORT_API_KEY"),
            shop_orders_api_key=_optional(env, "SHOP_ORDERS_API_KEY"),
            feature_user_product_kit=_flag(env, "FEATURE_USER_PRODUCT_KIT", True),
            feature_tier_discount=_flag(env, "FEATURE_TIER_DISCOUNT", False),
            session_secret=_optional(env, "SESSION_SECRET"),
            pin_pepper=_pin_pepper(env),
            public_base_url=(
                _optional(env, "PUBLIC_BASE_URL") or f"http://localhost:{port}"
            ).rstrip("/"),
            messaging_api_url=_messaging_url(env),
            messaging_token=_optional(env, "MESSAGING_TOKEN"),
            messaging_phone_number_id=_optional(env, "MESSAGING_PHONE_NUMBER_ID"),
            backup_dir=_backup_dir(env, data_dir, backup_s3),
            backup_s3=backup_s3,
            log_format=log_format,
            migrate_on_start=_flag(env, "MIGRATE_ON_START", True),
            ai_base_url=_ai_base_url(env),
            ai_api_key=_optional(env, "AI_API_KEY"),
            ai_model=_optional(env, "AI_MODEL"),
            webhooks_allow_private=_flag(env, "WEBHOOKS_ALLOW_PRIVATE", False),
            audit_retention_days=_audit_retention_days(env),
        )

    @property
    def session_secret_ok(self) -> bool:
        return self.session_secret is not None and len(self.session_secret) >= 16

    @property
    def secure_cookies(self) -> bool:
        """Cookies are marked Secure when the service is reached over https."""
        return self.public_base_url.startswith("https://")

    @property
    def messaging_connected(self) -> bool:
        return bool(
            self.messaging_api_url and self.messaging_token and self.messaging_phone_number_id
        )

    @property
    def ai_configured(self) -> bool:
        """docs/ai.md: the AI is "configured" when a key and a model are set."""
        return bool(self.ai_api_key and self.ai_model)
