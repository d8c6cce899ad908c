"""``recognisers/sources.py``: what a source register states in words (layers named as
labels, a capture digest, a revision shared with another source, a source paragraph's label)."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.sources import (
    capture_digest,
    labelled_layers,
    only_a_digest,
    same_as,
    source_head,
)

HEX = "c093e240375e9780468edca9aa91aefecb8714ebdbef40810316644d9b2822d0"
COMMIT = "0123456789abcdef0123456789abcdef01234567"

# ---------------------------------------------------------------- labelled_layers


@pytest.mark.parametrize(
    ("text", "entries", "after"),
    [
        pytest.param(
            "Implementation: TypeScript under `src/`. Doctrine/design: `README.md`, `docs/`. "
            "No observed-run or causal evidence.",
            [
                {"layer": "implementation", "note": "TypeScript under `src/`."},
                {"layer": "doctrine/design", "note": "`README.md`, `docs/`."},
            ],
            "No observed-run or causal evidence.",
            id="sentences-then-a-remark",
        ),
        pytest.param(
            "Implementation: Python; doctrine/design: prompt templates; reported operation: README bullets",
            [
                {"layer": "implementation", "note": "Python"},
                {"layer": "doctrine/design", "note": "prompt templates"},
                {"layer": "reported operation", "note": "README bullets"},
            ],
            "",
            id="clauses",
        ),
        pytest.param(
            "Implementation: a. b. Reported operation: c.",
            [{"layer": "implementation", "note": "a. b."}, {"layer": "reported operation", "note": "c."}],
            "",
            id="a-note-of-two-sentences-runs-to-the-next-layer",
        ),
    ],
)
def test_each_layer_named_as_a_label_is_a_layer(text: str, entries: list[dict[str, str]], after: str) -> None:
    found = labelled_layers(text)
    assert found is not None
    assert (found.before, found.entries, found.after) == ("", entries, after)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Implementation: Python only.", id="one-layer"),
        pytest.param("implementation", id="no-label"),
        pytest.param("Implementations: a. Doctrine/designs: b.", id="longer-words"),
        pytest.param("`Implementation: a; doctrine/design: b`", id="inside-code"),
        pytest.param("", id="empty"),
    ],
)
def test_a_text_naming_fewer_than_two_layers_is_not_split(text: str) -> None:
    assert labelled_layers(text) is None


def test_one_layer_is_enough_where_asked_and_text_before_it_is_kept() -> None:
    found = labelled_layers("Read at the tag. Implementation: `src/`. Gaps remain.", least=1)
    assert found is not None
    assert (found.before, found.entries, found.after) == (
        "Read at the tag.",
        [{"layer": "implementation", "note": "`src/`."}],
        "Gaps remain.",
    )


# ---------------------------------------------------------------- digests and shared revisions


@pytest.mark.parametrize(
    ("text", "digest", "alone"),
    [
        pytest.param(f"SHA-256 {HEX}; 90009 bytes", f"sha256:{HEX}", False, id="phrase-with-size"),
        pytest.param(f"sha256:{HEX}", f"sha256:{HEX}", True, id="colon"),
        pytest.param(f"SHA-256 `{HEX.upper()}`", f"sha256:{HEX}", True, id="code-span-upper-case"),
        pytest.param(f"SHA-256 {HEX}0", None, False, id="too-long"),
        pytest.param("SHA-256 ab12", None, False, id="too-short"),
        pytest.param(COMMIT, None, False, id="a-commit"),
    ],
)
def test_a_capture_digest_is_the_revision_sha256(text: str, digest: str | None, alone: bool) -> None:
    assert capture_digest(text) == digest
    assert only_a_digest(text) is alone


@pytest.mark.parametrize(
    ("text", "source"),
    [
        pytest.param("Same capture and digest as SRC-1", "SRC-1", id="capture"),
        pytest.param("same revision as `SRC-12`.", "SRC-12", id="code-span"),
        pytest.param("Same capture as the appendix", None, id="names-no-source"),
        pytest.param("Same capture as SRC-1 and SRC-2", None, id="two-sources"),
        pytest.param("Not the same as SRC-1", None, id="not-opening-same"),
        pytest.param("Same as CMP-1", None, id="not-a-source"),
    ],
)
def test_same_as_names_the_one_source_whose_revision_is_shared(text: str, source: str | None) -> None:
    assert same_as(text) == source


# ---------------------------------------------------------------- source_head


def test_a_source_paragraph_label_gives_kind_identity_location_and_commit() -> None:
    head = source_head(f"Git https://github.com/o/r at {COMMIT}; access root /srv/r")
    assert head is not None
    assert (head.source_kind, head.identity, head.location, head.revision) == (
        "Git",
        f"https://github.com/o/r at {COMMIT}; access root /srv/r",
        "https://github.com/o/r",
        COMMIT,
    )


def test_a_capture_label_gives_its_digest() -> None:
    head = source_head(f"Paper capture, `https://example.org/p`; SHA-256 {HEX}")
    assert head is not None
    assert (head.source_kind, head.location, head.revision) == (
        "Paper capture",
        "https://example.org/p",
        f"sha256:{HEX}",
    )


@pytest.mark.parametrize(
    "label",
    [
        pytest.param("A colleague's notes, unpublished", id="no-location"),
        pytest.param("https://github.com/o/r at HEAD", id="no-kind"),
        pytest.param("Git javascript:alert(1)", id="not-http"),
        pytest.param("A very long phrase of more than five words before https://x.org", id="kind-too-long"),
        pytest.param("`Git` https://github.com/o/r", id="kind-in-code"),
    ],
)
def test_a_label_without_a_kind_and_a_location_is_no_source_head(label: str) -> None:
    assert source_head(label) is None


def test_a_label_without_a_revision_has_none() -> None:
    head = source_head("Git https://github.com/o/r at HEAD")
    assert head is not None and head.revision is None
