"""Which hosts ``kbgen sources fetch`` may contact: public ones only.

A source's ``location`` is record text, and records arrive as pull requests built in CI,
next to the runner's loopback services and its cloud metadata endpoint
(``http://169.254.169.254/``). So before git is asked to fetch, the location's host is
refused when it is, or resolves to, an address that is not public: loopback, link-local,
private, unique-local, unspecified, multicast or reserved, in IPv4 or IPv6, however it is
written (``localhost`` and its subdomains, a trailing dot, ``[::1]``, ``::ffff:127.0.0.1``,
and the numeric forms a resolver accepts: ``2130706433``, ``0x7f.1``, ``0177.0.0.1``,
``127.1``). A name that does not resolve here is left to git, which cannot reach it
either. git is also told not to follow HTTP redirects, so a public host cannot send the
fetch on to a private one.

A mirror keeps working through git's ``url.<base>.insteadOf``: the records name the
public location, and the rewrite happens inside git, from the maintainer's
configuration. A maintainer who fetches from a private host on purpose names it with
``--allow-host`` (or ``KBGEN_ALLOW_HOSTS``, comma-separated).
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

ALLOW_HOSTS_ENV = "KBGEN_ALLOW_HOSTS"
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def allowed_hosts(named: Iterable[str] = ()) -> frozenset[str]:
    """The hosts a maintainer allows although they are not public (option and environment)."""
    from_env = [part for part in os.environ.get(ALLOW_HOSTS_ENV, "").split(",") if part.strip()]
    return frozenset(_normal(host) for host in [*named, *from_env])


def _normal(host: str) -> str:
    return host.strip().strip("[]").rstrip(".").lower()


def _literal(host: str) -> IPAddress | None:
    """The address a host names by itself (dotted, IPv6, or a numeric form a resolver takes)."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))  # '2130706433', '0x7f.1', '127.1'
    except (OSError, ValueError):
        return None


def _not_public(address: IPAddress) -> str | None:
    mapped = getattr(address, "ipv4_mapped", None)
    if mapped is not None:
        address = mapped
    for name, flag in (
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("private", address.is_private),
        ("multicast", address.is_multicast),
        ("reserved", address.is_reserved),
    ):
        if flag:
            return f"{name} address {address}"
    if not address.is_global:
        return f"non-public address {address}"
    return None


def _resolved(host: str) -> list[IPAddress]:
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return []  # unresolvable here: git cannot reach it either
    found: list[IPAddress] = []
    for info in infos:
        address = _literal(str(info[4][0]).split("%", 1)[0])
        if address is not None:
            found.append(address)
    return found


def location_refusal(location: str, allowed: frozenset[str] = frozenset()) -> str | None:
    """Why a fetch of ``location`` is refused (a host that is not public), or None."""
    try:
        host = urlsplit(location).hostname
    except ValueError as exc:
        return f"its URL cannot be read ({exc})"
    if not host:
        return "it names no host"
    host = _normal(host)
    if host in allowed:
        return None
    if host == "localhost" or host.endswith(".localhost"):
        return f"its host {host} is this machine"
    literal = _literal(host)
    if literal is not None:
        problem = _not_public(literal)
        return f"its host is {_a(problem)}" if problem else None
    for address in _resolved(host):
        problem = _not_public(address)
        if problem:
            return f"its host {host} resolves to {_a(problem)}"
    return None


def _a(phrase: str) -> str:
    return ("an " if phrase[:1] in "aeiou" else "a ") + phrase
