"""What makes a webhook endpoint's URL acceptable (DESIGN §12)."""

from __future__ import annotations

from urllib.parse import urlsplit

MAX_URL_LENGTH = 2000
MAX_DESCRIPTION_LENGTH = 500
# Plain http is for a receiver on this machine (tests, a local relay); anything that crosses a
# network must be https.
LOCAL_HOSTS = frozenset(("localhost", "127.0.0.1", "::1"))

NOT_HTTPS = "Enter an https:// URL (plain http:// only for localhost)."
CREDENTIALS = "The URL must not hold a user name or password: the secret signs each request."
TOO_LONG = f"At most {MAX_URL_LENGTH:,} characters."


def url_problem(url: str) -> str | None:
    """Why the URL cannot take webhooks, or None when it can."""
    if len(url) > MAX_URL_LENGTH:
        return TOO_LONG
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        return NOT_HTTPS
    if not host or any(c.isspace() for c in url):
        return NOT_HTTPS
    if parts.username is not None or parts.password is not None:
        return CREDENTIALS
    if parts.scheme == "https" or (parts.scheme == "http" and host in LOCAL_HOSTS):
        return None
    return NOT_HTTPS
