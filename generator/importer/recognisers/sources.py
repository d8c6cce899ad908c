"""What a source register states in words: its evidence layers named as labels, a capture
digest, a revision shared with another source, and a source declared by a paragraph.

The forms (``document-forms.md``, "The source register" and "Inside a record"): a cell
or paragraph naming several layers (``Implementation: …; Doctrine/design: …. Reported
operation: …``, one layer each); a revision written ``SHA-256 <hex>`` or ``sha256:<hex>``
(a capture's digest) or ``Same capture and digest as SRC-1``; and a paragraph declaring a
source like a record, ``SRC-1 — Git <location> at <commit>; access root <path>.``, its
layers after. Each reads its text once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.model.code_spans import find_code_spans, outside_code_spans
from generator.model.ids import grammar
from generator.model.vocab import EvidenceLayer

_LAYERS = sorted((layer.value for layer in EvidenceLayer), key=len, reverse=True)
# A layer named as a label, at the text's start or after a sentence or clause:
# ``Implementation: …; doctrine/design: …. Reported operation: …``.
_LAYER_LABEL = re.compile(
    r"(?:\A|(?<=[.;] ))(?P<layer>" + "|".join(re.escape(layer) for layer in _LAYERS) + r"):\s",
    re.I,
)
# A capture digest: ``SHA-256 <64 hex>`` or ``sha256:<64 hex>``, the digest in backticks or not.
_DIGEST = re.compile(r"(?i)\bsha-?256(?::\s*|\s+)`?(?P<hex>[0-9a-f]{64})`?(?![0-9a-f])")
# A sentence's end: a full stop before white space (the dots of ``README.md`` are not one).
_SENTENCE_END = re.compile(r"\.(?=\s|\Z)")
# The location a source paragraph names, in backticks or not.
_URL = re.compile(r"`?(?P<url>https?://[^\s;,`'\"<>]+)`?")
# The revision after the location: ``at <40-hex>`` (in backticks or not).
_AT_COMMIT = re.compile(r"\bat\s+`?(?P<commit>[0-9a-f]{40})`?(?![0-9a-f])")
# A source's kind: a short phrase of words before its location (``Git``, ``Paper capture``).
_KIND = re.compile(r"[A-Za-z][\w/-]*(?: [\w/-]+){0,4}")


@dataclass(frozen=True)
class Layers:
    """The layers a text names as labels: the text before the first, one entry per layer
    (its note: the text up to the next layer's label), and what follows the last layer's
    sentence (about the source as a whole), each as written."""

    before: str
    entries: list[dict[str, str]]
    after: str


def labelled_layers(text: str, least: int = 2) -> Layers | None:
    """The evidence layers ``text`` names as labels; None when it names fewer than ``least``."""
    text = text.strip()
    found = list(outside_code_spans(find_code_spans(text), _LAYER_LABEL.finditer(text)))
    if len(found) < least or not found:
        return None
    entries: list[dict[str, str]] = []
    after = ""
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(text)
        note = text[match.end() : end].strip()
        if index + 1 == len(found):
            stop = next(outside_code_spans(find_code_spans(note), _SENTENCE_END.finditer(note)), None)
            if stop is not None:
                note, after = note[: stop.end()], note[stop.end() :].strip()
        note = note.removesuffix(";").strip()
        entries.append({"layer": match.group("layer").lower(), **({"note": note} if note else {})})
    return Layers(text[: found[0].start()].strip(), entries, after)


def capture_digest(text: str) -> str | None:
    """``SHA-256 <hex>; 90009 bytes`` (or ``sha256:<hex>``) → ``sha256:<hex>``, the capture's
    revision; None when the text holds no whole SHA-256 digest."""
    match = _DIGEST.search(text)
    return f"sha256:{match.group('hex').lower()}" if match else None


def only_a_digest(text: str) -> bool:
    """Whether ``text`` says nothing but a capture digest (``SHA-256 `<hex>` ``)."""
    match = _DIGEST.search(text)
    return match is not None and not (text[: match.start()] + text[match.end() :]).strip(" `;,.")


def same_as(text: str) -> str | None:
    """``Same capture and digest as SRC-1`` → ``SRC-1``: the source whose revision this one
    shares; None for any other text."""
    match = re.fullmatch(rf"(?i)same\b[^.;]*?\bas\s+`?(?P<id>{grammar().source_id})`?\.?", text.strip())
    return match.group("id") if match else None


@dataclass(frozen=True)
class SourceHead:
    """What a source paragraph's label states: its kind, its identity as written after the
    kind (location, revision, access root), its location and its revision."""

    source_kind: str
    identity: str
    location: str
    revision: str | None


def source_head(label: str) -> SourceHead | None:
    """``Git https://github.com/o/r at <40-hex>; access root /path`` → its kind (the words
    before the location), identity, location and revision (a commit after ``at``, or a
    capture digest); None when no location follows a kind's words."""
    url = _URL.search(label)
    if url is None:
        return None
    kind = label[: url.start()].strip().removesuffix(",").strip()
    if not _KIND.fullmatch(kind):
        return None
    tail = label[url.end() :]
    commit = _AT_COMMIT.search(tail)
    revision = commit.group("commit") if commit else capture_digest(tail)
    identity = label[url.start() :].strip()
    return SourceHead(kind, identity, url.group("url"), revision)
