"""Which push endpoints the site posts to, and the connection that posts there.

A browser hands the site its push service's URL (RFC 8030), and the site's worker posts to it:
an endpoint of a page's choosing would make the worker connect wherever that page likes (this
machine's Redis, the private network behind it). So an endpoint is taken only if it is an
https URL on port 443, with no user or password, naming a host (not an address) every address
of which is public: not loopback, private, link-local, shared, reserved, multicast or
unspecified. The check runs when a browser subscribes and again at every send (a name may
resolve elsewhere since), and the send connects to the very addresses it checked
(`PinnedPushSession`), so a name that changes between the check and the connection gains
nothing.

`settings.WEBPUSH_RESOLVER` names the function that resolves a host; the test suite's local
stand-ins of a push service are named in `settings.WEBPUSH_LOCAL_ORIGINS`, which is empty in
production.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

HTTPS_PORT = 443

# What the person is told when their browser's endpoint is refused (the subscribe endpoint's
# 400 answer).
NOT_A_PUSH_URL = _("A push endpoint is the https address of a push service, on its standard "
                   "port, with no user name or password.")
NOT_PUBLIC = _("That push service's address is not a public one.")
NOT_FOUND = _("That push service's name could not be resolved.")


class EndpointRefused(ValueError):
    """The endpoint is not one the site posts to; `message` says why, for the person."""

    def __init__(self, message: Any, *, lasting: bool) -> None:
        super().__init__(str(message))
        self.message = message
        # The URL itself is refused (scheme, port, user, address literal): it never will be
        # taken. Otherwise its name resolves, or not, to addresses refused today.
        self.lasting = lasting


@dataclass(frozen=True)
class Target:
    """A checked endpoint: where to connect for it."""

    host: str
    port: int
    addresses: tuple[str, ...]


def resolve(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (the default `WEBPUSH_RESOLVER`)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def address_is_public(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (
        ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_reserved
        or ip.is_multicast or ip.is_unspecified
    )


def _origin(scheme: str, host: str, port: int) -> str:
    return f"{scheme}://{host}:{port}"


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return True
    # What the resolver would take for an address of four parts' shorthand ("127.1", "2130706433")
    return all(part.isdigit() or part.lower().startswith("0x") for part in host.split("."))


def endpoint_check(endpoint: str) -> Target:
    """Where the site may post for `endpoint`, or `EndpointRefused`."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise EndpointRefused(NOT_A_PUSH_URL, lasting=True) from None
    host = (parts.hostname or "").rstrip(".")
    if not host or parts.username is not None or parts.password is not None or "@" in (
            parts.netloc):
        raise EndpointRefused(NOT_A_PUSH_URL, lasting=True)
    scheme = parts.scheme.lower()
    default = HTTPS_PORT if scheme == "https" else 80
    if _origin(scheme, host, port or default) in settings.WEBPUSH_LOCAL_ORIGINS:
        return Target(host=host, port=port or default, addresses=tuple(_lookup(host, default)))
    if scheme != "https" or port not in (None, HTTPS_PORT) or _is_address(host):
        raise EndpointRefused(NOT_A_PUSH_URL, lasting=True)
    addresses = _lookup(host, HTTPS_PORT)
    if not all(address_is_public(address) for address in addresses):
        raise EndpointRefused(NOT_PUBLIC, lasting=False)
    return Target(host=host, port=HTTPS_PORT, addresses=tuple(addresses))


def _lookup(host: str, port: int) -> list[str]:
    resolver: Callable[[str, int], list[str]] = import_string(settings.WEBPUSH_RESOLVER)
    try:
        addresses = resolver(host, port)
    except (OSError, UnicodeError):
        addresses = []
    if not addresses:
        raise EndpointRefused(NOT_FOUND, lasting=False)
    return addresses


# --- the connection to the checked addresses ----------------------------------------------------


def _connect(target: Target, timeout: Any) -> socket.socket:
    error: OSError | None = None
    for address in target.addresses:
        try:
            return socket.create_connection((address, target.port), timeout=timeout)
        except OSError as failure:
            error = failure
    raise error or OSError(f"no address for {target.host}")


class _PinnedHTTPS(HTTPSConnection):
    target: Target

    def _new_conn(self) -> socket.socket:
        # TLS (and its certificate check) still names the host; only the address is pinned.
        return _connect(self.target, self.timeout)


class _PinnedHTTP(HTTPConnection):
    target: Target

    def _new_conn(self) -> socket.socket:
        return _connect(self.target, self.timeout)


class _PinnedAdapter(HTTPAdapter):
    def __init__(self, target: Target) -> None:
        self.target = target
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        target = self.target

        class PinnedHTTPSPool(HTTPSConnectionPool):
            ConnectionCls = type("PinnedHTTPSConnection", (_PinnedHTTPS,), {"target": target})

        class PinnedHTTPPool(HTTPConnectionPool):
            ConnectionCls = type("PinnedHTTPConnection", (_PinnedHTTP,), {"target": target})

        self.poolmanager.pool_classes_by_scheme = {"https": PinnedHTTPSPool,
                                                   "http": PinnedHTTPPool}


class PinnedPushSession(requests.Session):
    """A session that posts only to `target`'s host, connecting to its checked addresses
    (never following a redirect, never reading proxies from the environment)."""

    def __init__(self, target: Target) -> None:
        super().__init__()
        self.trust_env = False
        self.max_redirects = 0
        adapter = _PinnedAdapter(target)
        self.mount("https://", adapter)
        self.mount("http://", adapter)

    def request(self, method: str | bytes, url: str | bytes, *args: Any,  # type: ignore[override]
                **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().request(method, url, *args, **kwargs)
