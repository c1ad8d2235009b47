"""The HTTP client webhooks are sent with: it reaches only the addresses the rules allow
(app/webhooks/addresses.py, docs/webhooks.md#addresses)."""

from __future__ import annotations

import ssl
from typing import Any

import aiohttp

from app.webhooks.addresses import CheckedResolver, Lookup, system_lookup
from app.webhooks.endpoints import target


class Client:
    """Each request's URL is checked as when it was saved; its host name is resolved once, by
    a resolver that refuses unless every address is allowed, and the connection goes to those.
    One session a scheme (http only with WEBHOOKS_ALLOW_PRIVATE): a resolver learns the host,
    not the scheme, and http may reach only private addresses. Proxies named in the
    environment are not used (trust_env is off): a proxy would resolve names unchecked.
    `lookup` and `tls` are for the tests (a name table; a test authority's certificates)."""

    def __init__(
        self,
        allow_private: bool,
        timeout: aiohttp.ClientTimeout,
        lookup: Lookup = system_lookup,
        tls: ssl.SSLContext | bool = True,
    ):
        self._allow_private = allow_private
        schemes = ("https", "http") if allow_private else ("https",)
        self._sessions = {
            scheme: aiohttp.ClientSession(
                timeout=timeout,
                connector=aiohttp.TCPConnector(
                    resolver=CheckedResolver(scheme, allow_private, lookup), ssl=tls
                ),
            )
            for scheme in schemes
        }

    def post(self, url: str, **kwargs: Any):
        """`session.post` to the checked URL; Refused (raised here, or by the resolver as the
        request connects) when it may not be reached."""
        checked = target(url, self._allow_private)
        return self._sessions[checked.url.scheme].post(checked.url, **kwargs)

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *_exc) -> None:
        for session in self._sessions.values():
            await session.close()
