"""Which hosts ``kbgen sources fetch`` may contact: public ones only.

A source's ``location`` is record text, and records arrive as pull requests built in CI,
next to the runner's loopback services and its cloud metadata endpoint
(``http://169.254.169.254/``). So before git is asked to fetch, the location's host is
refused when it is, or resolves to, an address that is not public: loopback, link-local,
private, unique-local, unspecified, multicast or reserved, in IPv4 or IPv6, however it is
written (``localhost`` and its subdomains, a trailing dot, ``[::1]``, ``::ffff:127.0.0.1``,
and the numeric forms a resolver accepts: ``2130706433``, ``0x7f.1``, ``0177.0.0.1``,
``127.1``). An IPv6 address that carries an IPv4 one (IPv4-mapped, IPv4-compatible, 6to4,
Teredo, NAT64) is refused when the IPv4 address it carries would be: a relay or
translator on the way delivers to that address, and ``ipaddress`` calls ``2002::/16``
global whatever it embeds. A name that does not resolve here is left to git, which cannot reach it
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


# NAT64 prefixes (RFC 6052, RFC 8215) and, for each prefix length a translator may use,
# the spans of bits (first bit, count) that hold the IPv4 address: bits 64-71 are skipped.
_NAT64_WELL_KNOWN = ipaddress.IPv6Network("64:ff9b::/96")
_NAT64_LOCAL_USE = ipaddress.IPv6Network("64:ff9b:1::/48")
_NAT64_SPANS = {
    48: ((48, 16), (72, 16)),
    56: ((56, 8), (72, 24)),
    64: ((72, 32),),
    96: ((96, 32),),
}
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")


def _nat64_embedded(value: int, prefix_length: int) -> ipaddress.IPv4Address:
    """The IPv4 address a NAT64 address carries under a prefix of ``prefix_length`` bits."""
    carried = 0
    for first, count in _NAT64_SPANS[prefix_length]:
        carried = (carried << count) | ((value >> (128 - first - count)) & ((1 << count) - 1))
    return ipaddress.IPv4Address(carried)


def embedded_ipv4(address: IPAddress) -> list[tuple[str, ipaddress.IPv4Address]]:
    """The IPv4 addresses an IPv6 address carries, each with the form that carries it:
    a packet to the IPv6 address reaches them through a relay or a translator."""
    if isinstance(address, ipaddress.IPv4Address):
        return []
    value = int(address)
    found: list[tuple[str, ipaddress.IPv4Address]] = []
    if address.ipv4_mapped is not None:
        found.append(("IPv4-mapped", address.ipv4_mapped))
    if address.sixtofour is not None:
        found.append(("6to4", address.sixtofour))
    if address.teredo is not None:
        server, client = address.teredo
        found += [("Teredo server", server), ("Teredo client", client)]
    if address in _NAT64_WELL_KNOWN:
        found.append(("NAT64", _nat64_embedded(value, 96)))
    if address in _NAT64_LOCAL_USE:  # the translator's prefix length is not in the address
        found += [("NAT64", _nat64_embedded(value, length)) for length in sorted(_NAT64_SPANS)]
    if address in _IPV4_COMPATIBLE and value > 1:  # not '::' nor '::1'
        found.append(("IPv4-compatible", ipaddress.IPv4Address(value)))
    return found


def _not_public(address: IPAddress) -> str | None:
    for form, carried in embedded_ipv4(address):
        problem = _plain_not_public(carried)
        if problem:
            return f"{form} address {address} carrying {_a(problem)}"
    if getattr(address, "ipv4_mapped", None) is not None:
        return None  # the IPv4 address it maps, checked above, is what is reached
    return _plain_not_public(address)


def _plain_not_public(address: IPAddress) -> str | None:
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
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase
