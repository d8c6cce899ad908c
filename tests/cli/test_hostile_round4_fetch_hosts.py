"""Hostile corpus, fourth round: ``kbgen sources fetch`` and an IPv6 address that carries a
non-public IPv4 one.

An IPv6 address can carry an IPv4 address that a relay or translator on the way delivers
to: 6to4 (``2002::/16``, which ``ipaddress`` calls global whatever it embeds), Teredo
(``2001::/32``: the server's address in bits 32-63, the client's inverted in the last 32),
NAT64 (``64:ff9b::/96`` and the local-use ``64:ff9b:1::/48``) and the IPv4-compatible
``::a.b.c.d``. Each carried address is held to the rule of a plain IPv4 one (KB508), and
the refusal names it; a carried public address is fetched as a plain one would be.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import located

from generator.cli.fetch_hosts import location_refusal

RECORDS = "records/tiny/records.yaml"
# The location value is at line 7, column 13.
TEMPLATE = """\
run:
  system: Tiny
sources:
- id: SRC-1
  source_kind: Git
  identity: tiny test repository
  location: {location}
  revision: 0123456789abcdef0123456789abcdef01234567
components:
- id: CMP-1
  evidence:
  - SRC-1 app.py:1
"""

SIX_TO_FOUR = [
    ("http://[2002:7f00:1::1]/r", "6to4", "loopback address 127.0.0.1"),
    ("https://[2002:a9fe:a9fe::1]/latest/meta-data/", "6to4", "link-local address 169.254.169.254"),
    ("http://[2002:0a00:0001::]/r.git", "6to4", "private address 10.0.0.1"),
    ("http://[2002:c0a8:0101:0:0:0:0:1]/r", "6to4", "private address 192.168.1.1"),
    ("http://[2002:7F00:0001::1]:8080/r", "6to4", "loopback address 127.0.0.1"),
]
# Refused on today's main too, but as the IPv6 address alone: the refusal must name what
# the address carries, by the IPv4 rule, whichever Python's tables say of the IPv6 range.
CARRIERS = [
    # Teredo: server 65.54.227.120, client ~80ff:fffe = 127.0.0.1
    ("http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/r", "Teredo client", "loopback address 127.0.0.1"),
    # Teredo: server 10.0.0.1, client ~3fff:fdd2 = 192.0.2.45
    ("http://[2001:0:a00:1:8000:63bf:3fff:fdd2]/r", "Teredo server", "private address 10.0.0.1"),
    ("http://[64:ff9b::7f00:1]/r", "NAT64", "loopback address 127.0.0.1"),
    ("http://[64:ff9b::a9fe:a9fe]/r", "NAT64", "link-local address 169.254.169.254"),
    ("http://[64:ff9b:1:7f00:0:100::]/r", "NAT64", "loopback address 127.0.0.1"),  # a /48 prefix
    ("http://[::127.0.0.1]/r", "IPv4-compatible", "loopback address 127.0.0.1"),
    ("http://[::10.1.2.3]/r", "IPv4-compatible", "private address 10.1.2.3"),
]


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KBGEN_ALLOW_HOSTS", raising=False)
    return tmp_path


def _write(root: Path, location: str) -> None:
    folder = root / "records" / "tiny"
    folder.mkdir(parents=True)
    (folder / "records.yaml").write_text(TEMPLATE.format(location=location), encoding="utf-8")


@pytest.mark.parametrize(("location", "form", "carried"), SIX_TO_FOUR)
def test_a_6to4_address_carrying_a_non_public_ipv4_is_refused_before_git(
    in_tmp: Path, kbgen, location: str, form: str, carried: str
) -> None:
    _write(in_tmp, location)
    result = kbgen("sources", "fetch", "--cache", "cache", "--format", "json")
    assert result.code == 1
    assert located(result) == {("KB508", RECORDS, 7, 13)}
    (message,) = [d["message"] for d in result.json()["diagnostics"]]
    assert f"{form} address" in message and f"carrying a {carried}" in message
    assert not (in_tmp / "cache").exists() or not any((in_tmp / "cache").iterdir())  # git never asked


@pytest.mark.parametrize(("location", "form", "carried"), SIX_TO_FOUR + CARRIERS)
def test_the_refusal_names_the_ipv4_address_the_ipv6_one_carries(
    location: str, form: str, carried: str
) -> None:
    refusal = location_refusal(location)
    assert refusal is not None
    assert f"{form} address" in refusal and refusal.endswith(f"carrying a {carried}")


@pytest.mark.parametrize(
    "location",
    [
        "https://[2002:808:808::1]/r",  # 6to4 of 8.8.8.8
        "https://[::ffff:8.8.8.8]/r",  # IPv4-mapped 8.8.8.8
        "https://[2606:4700:4700::1111]/r",
        "https://8.8.8.8/r",
    ],
)
def test_a_public_address_however_carried_is_not_refused(location: str) -> None:
    assert location_refusal(location) is None


def test_an_allowed_host_is_allowed_whatever_it_carries() -> None:
    assert location_refusal("http://[2002:7f00:1::1]/r", frozenset({"2002:7f00:1::1"})) is None
