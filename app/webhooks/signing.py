"""Standard Webhooks signatures (https://www.standardwebhooks.com): a secret `whsec_<base64>`
and `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. A few lines
instead of a dependency; the tests verify them with the `standardwebhooks` package."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

PREFIX = "whsec_"
# The specification asks for 24 to 64 random bytes.
SECRET_BYTES = 32


def new_secret() -> str:
    return PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """The `webhook-signature` header value of one attempt."""
    key = base64.b64decode(secret.removeprefix(PREFIX))
    signed = f"{message_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
