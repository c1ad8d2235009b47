"""What makes a webhook endpoint's URL acceptable (docs/webhooks.md#addresses): checked when
it is saved, and again before every attempt to deliver to it."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

import yarl

from app.webhooks.addresses import (
    IPAddress,
    Lookup,
    Refused,
    carried,
    check,
    resolve,
    system_lookup,
)

MAX_URL_LENGTH = 2000
MAX_DESCRIPTION_LENGTH = 500

NOT_HTTPS = "Enter an https:// URL."
NOT_HTTPS_OR_PRIVATE = "Enter an https:// URL (http:// only to a private or loopback address)."
CREDENTIALS = "The URL must not hold a user name or password: the secret signs each request."
TOO_LONG = f"At most {MAX_URL_LENGTH:,} characters."
NOT_A_HOST = "Enter a host name (letters, digits, hyphens and dots) or an IP address."
NOT_AN_IP = "Write an IP address as four numbers from 0 to 255, like 203.0.113.7."

# A host name as aiohttp connects to it: IDNA-encoded, lower case; one trailing dot at most.
HOST_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?")
# A last label of digits, or 0x and hex digits, makes the host an IPv4 address to browsers
# and to getaddrinfo, in the old forms that read "0x7f.1", "127.1" and "2130706433" as
# 127.0.0.1: only the usual dotted form is taken, so what is checked is what is meant.
NUMBER = re.compile(r"[0-9]+|0x[0-9a-f]*")


@dataclass(frozen=True)
class Target:
    """A URL as aiohttp reads it: the request goes to `url`, which is what was checked."""

    url: yarl.URL
    # The host aiohttp connects to (yarl's raw host: IDNA-encoded, IPv6 without brackets).
    host: str
    # The host when it is an IP address (then checked here, not by a resolver).
    address: IPAddress | None


def target(url: str, allow_private: bool) -> Target:
    """The URL read as aiohttp will read it, its form checked and, when its host is an IP
    address, that address; Refused says why it cannot take webhooks. A host name's
    addresses are checked when it is resolved (`problem`, `CheckedResolver`)."""
    not_https = NOT_HTTPS_OR_PRIVATE if allow_private else NOT_HTTPS
    if len(url) > MAX_URL_LENGTH:
        raise Refused(TOO_LONG)
    if any(c.isspace() or not c.isprintable() for c in url):
        raise Refused(not_https)
    try:
        parsed = yarl.URL(url)
        host = parsed.raw_host
        parsed.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        raise Refused(not_https) from None
    schemes = ("https", "http") if allow_private else ("https",)
    if not parsed.absolute or parsed.scheme not in schemes or not host:
        raise Refused(not_https)
    if parsed.user is not None or parsed.password is not None:
        raise Refused(CREDENTIALS)
    address = _address(host)
    if address is not None:
        check(_subject(address), [address], parsed.scheme, allow_private)
    return Target(parsed, host, address)


def _subject(address: IPAddress) -> str:
    """How a refusal names an IP address: with the IPv4 address an IPv6 one leads to."""
    if isinstance(address, ipaddress.IPv6Address) and (inner := carried(address)) is not None:
        return f"{address} (which leads to {inner}) is"
    return f"{address} is"


def _address(host: str) -> IPAddress | None:
    """The host as an IP address, None for a name; Refused for neither."""
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host)
        except ValueError:
            raise Refused(NOT_A_HOST) from None
    if NUMBER.fullmatch(host.removesuffix(".").rsplit(".", 1)[-1]):
        try:
            return ipaddress.IPv4Address(host)
        except ValueError:
            raise Refused(NOT_AN_IP) from None
    if not HOST_NAME.fullmatch(host):
        raise Refused(NOT_A_HOST)
    return None


async def problem(url: str, allow_private: bool, lookup: Lookup = system_lookup) -> str | None:
    """Why webhooks may not go to `url` now, or None: its form, then every address of its
    host (looked up with `lookup`)."""
    try:
        found = target(url, allow_private)
        if found.address is None:
            await resolve(found.host, found.url.scheme, allow_private, lookup)
    except Refused as refused:
        return str(refused)
    return None
