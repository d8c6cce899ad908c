"""Hostile corpus, fourth round: a source location is checked as written, in the form a
browser follows (KB411).

A browser parses a link by the WHATWG URL rules before it follows it: a backslash is '/',
``.`` and ``..`` segments (also written ``%2e``) remove what precedes them, a name before
``@`` is a user, not the host, and the host is decoded and lower-cased. So
``https://github.com/example/demo/%2e%2e/%2E%2e/attacker/fork`` reads as one repository and
leads to another. The model keeps a location as written (it no longer normalises it
first), the check refuses every such form at the ``location`` value (or the
``link_template``), the link builder links nothing for it, and ``kbgen sources fetch``
does not hand it to git (which would normalise it too).
"""

from __future__ import annotations

from pathlib import Path

import git
import pytest
from hostile_support import located, make_records

from generator.model.records import Source, Supplied
from generator.model.url_policy import normal_form_problem, source_links, unlinked_reason

SOURCES = "records/demo/sources.yaml"
SUPPLIED = "records/demo/supplied.yaml"
REVISION = "0123456789abcdef0123456789abcdef01234567"

SOURCES_HEAD = """sources:
  - id: SRC-1
    source_kind: Git
    identity: https://github.com/example/demo
"""
SOURCES_TAIL = """    revision: "0123456789abcdef"
    layers:
      - layer: implementation
        scope: The files named by the anchors.
"""

# Each reads as github.com/example/demo (or a repository there) and leads elsewhere.
HOSTILE_LOCATIONS = [
    "https://github.com/example/demo/%2e%2e/%2E%2e/attacker/fork",  # encoded dots, mixed case
    "https://github.com/example/demo/../../attacker/fork",
    "https://github.com/example/demo/./../../attacker/fork",
    "https://github.com/example/demo/.%2E/%2e./attacker/fork",  # half encoded
    "https://github.com/example/demo/%252e%252e/%252E%252E/attacker/fork",  # double-encoded
    "https://github.com/example/demo%2f..%2f..%2fattacker%2ffork",  # an encoded slash, then dots
    "https://github.com\\example\\demo\\..\\..\\attacker\\fork",  # backslashes
    "https://github.com/example/demo\\..\\..\\attacker/fork",
    "https://github.com@evil.example/example/demo",  # a user name, then the host
    "https://github.com:443@evil.example/example/demo",
    "https://gith%75b.com/attacker/fork",  # a host a browser decodes
]


def _sources(location: str, extra: str = "") -> str:
    return SOURCES_HEAD + f"    location: '{location}'\n" + extra + SOURCES_TAIL


def _check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen, changes: dict) -> set:
    make_records(tmp_path, changes)
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 1, result.out
    return located(result)


@pytest.mark.parametrize("location", HOSTILE_LOCATIONS)
def test_a_location_that_a_browser_reads_as_another_is_refused_where_it_is_written(
    tmp_path, monkeypatch, kbgen, location
) -> None:
    found = _check(tmp_path, monkeypatch, kbgen, {"sources.yaml": _sources(location)})
    assert found == {("KB411", SOURCES, 5, 15)}


@pytest.mark.parametrize("location", HOSTILE_LOCATIONS[:3] + HOSTILE_LOCATIONS[8:9])
def test_a_supplied_records_location_is_held_to_the_same_form(tmp_path, monkeypatch, kbgen, location) -> None:
    supplied = f"supplied:\n  - id: RT-CMP-x\n    declared_in: the member\n    location: '{location}'\n"
    found = _check(tmp_path, monkeypatch, kbgen, {"supplied.yaml": supplied})
    assert found == {("KB411", SUPPLIED, 4, 15)}


@pytest.mark.parametrize(
    "template",
    [
        "{location}/../../attacker/fork/blob/{revision}/{path}#L{start}-L{end}",
        "{location}/%2e%2e/%2e%2e/attacker/fork/blob/{revision}/{path}",
        "https://github.com/example/demo/%252e%252e/x/{revision}/{path}",
        "https://github.com@evil.example/{revision}/{path}",
    ],
)
def test_a_link_template_that_a_browser_reads_as_another_url_is_refused(
    tmp_path, monkeypatch, kbgen, template
) -> None:
    sources = _sources("https://github.com/example/demo", f"    link_template: '{template}'\n")
    found = _check(tmp_path, monkeypatch, kbgen, {"sources.yaml": sources})
    assert found == {("KB411", SOURCES, 6, 20)}


@pytest.mark.parametrize("location", HOSTILE_LOCATIONS)
def test_the_link_builder_links_nothing_for_such_a_location(location: str) -> None:
    links = source_links(None, location, REVISION, None)
    assert links.file("app.py", 1, 2) is None and links.tree(REVISION) is None
    reason = unlinked_reason(None, location, REVISION, None)
    assert reason is not None and reason.startswith("not linked: its location ")


@pytest.mark.parametrize("location", HOSTILE_LOCATIONS[:5])
def test_the_model_keeps_a_location_as_written(location: str) -> None:
    source = Source.model_validate(
        {"id": "SRC-1", "source_kind": "Git", "identity": "a repository", "location": location}
    )
    supplied = Supplied.model_validate({"id": "RT-CMP-x", "declared_in": "the member", "location": location})
    assert source.location == location and supplied.location == location


@pytest.mark.parametrize(
    "location",
    [
        "https://github.com/example/demo",
        "https://github.com/example/demo.git",
        "https://GitHub.com/Example/Demo",
        "https://github.com:443/example/demo",
        "https://example.org",
        "https://arxiv.org/abs/2401.00001v2",
        "https://example.org/docs/a%20b?q=../x#../y",  # query and fragment are not the path
        "https://example.org/%7Euser/repo",
    ],
)
def test_a_location_in_its_normal_form_passes(location: str) -> None:
    assert normal_form_problem(location) is None


def test_sources_fetch_does_not_hand_such_a_location_to_git(tmp_path, monkeypatch, kbgen) -> None:
    """git (curl) would normalise it too: the fetch would take the other repository."""
    upstream = tmp_path / "other"
    repo = git.Repo.init(upstream)
    (upstream / "app.py").write_text("x = 1\n", encoding="utf-8")
    repo.index.add(["app.py"])
    actor = git.Actor("Test", "test@example.org")
    sha = repo.index.commit("one", author=actor, committer=actor).hexsha
    repo.close()
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-global-gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")  # the normalised location is the other repository
    monkeypatch.setenv("GIT_CONFIG_KEY_0", f"url.{upstream.as_uri()}.insteadOf")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "https://git.example.org/attacker/fork")
    location = "https://git.example.org/team/demo/%2e%2e/%2e%2e/attacker/fork"
    sources = _sources(location).replace('"0123456789abcdef"', sha)
    make_records(tmp_path, {"sources.yaml": sources})
    monkeypatch.chdir(tmp_path)
    result = kbgen("sources", "fetch", "records", "--cache", "cache", "--format", "json")
    assert result.code == 1
    assert ("KB411", SOURCES, 5, 15) in located(result)
    assert "0 fetched" in result.err
