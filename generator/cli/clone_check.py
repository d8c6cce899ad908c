"""Optional deeper check: evidence anchors and quotations against local git clones.

``kbgen check --sources DIR`` resolves every pinned source of a system in a local
clone and checks what the records cite against the commit they pin.

Clone location convention
    ``DIR/<system-slug>/<SRC-ID>`` is the clone of one source, e.g.
    ``sources/oh-my-pi/SRC-1``. When a system declares exactly one source (local or
    supplied), ``DIR/<system-slug>`` may itself be the clone. Each location must be
    the top of a git work tree or a bare repository; parent directories are never
    searched.

Which sources are checked
    Every declared ``Source`` record and every ``supplied:`` entry with a source ID
    and a ``revision``. The pinned revision must be a full or abbreviated hex commit
    ID; it is resolved with ``repo.commit(rev)``.

Rules
    KB505 (error): the pinned revision is not a full or abbreviated hex commit ID
          (a branch, tag or relative name such as ``HEAD~1`` moves); located at the
          ``revision`` field. Checked before git sees the value.
    KB501 (warning, once per source, at its declaration): no clone where the
          convention expects one, the folder is not a git repository, the revision
          does not resolve to a commit, or a clone exists but the source pins no
          revision. The source's anchors are then not checked.
    KB502 (error): an anchor's path is not in the commit's tree, or a quotation's
          path is not a file there.
    KB503 (error): a line range of an anchor or quotation ends past the file's last
          line (or cites lines of a directory).
    KB504 (error): a quotation's text does not occur in its file. Both sides are
          compared with every run of whitespace collapsed to one space, because
          quotations are often single-line renderings of multi-line code.

Anchors are taken from structured ``evidence`` lists (records, amendments,
annotations) and from prose, as ``find_anchors`` finds them; quotations cite their
own ``source``, or the system's single source. Anchors whose source is undeclared
or whose path is unsafe are left to rules KB401/KB402. Diagnostics are located
exactly as the cross-record rules locate them.

Each blob is read at most once per (source, path). The check is pure: it only reads
objects from the clones (lazy fetching of partial clones is disabled) and never
writes to them or to the records.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from generator.check import CheckedSystem
from generator.check.context import Context
from generator.check.rules import build_context
from generator.diagnostics import Diagnostic, Rule, error, warning
from generator.load.textpos import LineIndex
from generator.model.anchors import LineRange, find_anchors, unsafe_path_reason
from generator.model.base import Quote
from generator.model.system import Origin
from generator.model.walk import DataPath

KB501 = Rule(
    "KB501",
    "git-unavailable",
    "The source clone or its pinned revision is not available.",
    doc="with `--sources`: clone or revision unavailable (warning)",
)

KB502 = Rule(
    "KB502",
    "git-file-missing",
    "A cited file does not exist at the pinned revision.",
    doc="with `--sources`: file missing",
)

KB503 = Rule(
    "KB503",
    "git-lines-missing",
    "A cited line range runs past the end of the file.",
    doc="with `--sources`: lines past the end",
)

KB504 = Rule(
    "KB504",
    "git-quote-missing",
    "A quotation does not occur in the cited file.",
    doc="with `--sources`: quote not found",
)

KB505 = Rule(
    "KB505",
    "bad-revision-spec",
    "A pinned revision is not a hex commit ID (full or abbreviated).",
    doc=(
        "with `--sources`: a pinned revision is not a full or abbreviated hex commit ID (`HEAD~1`, branches, "
        "tags move)"
    ),
)

_NO_GIT: str | None = None
try:
    import git
except ImportError as exc:  # pragma: no cover - GitPython installed, but no usable git executable
    _NO_GIT = f"GitPython cannot run git: {exc}"

Where = tuple[str, int, int]

# A pinned revision names one commit for ever: a full or abbreviated hex object ID
# (SHA-1 or SHA-256). Branches, tags and relative names (HEAD~1, @{-1}) move.
HEX_REVISION = re.compile(r"[0-9a-fA-F]{7,64}")

# Reading objects must never change the clone: no lazy fetch into a partial clone,
# no opportunistic index refresh.
_READ_ONLY_ENV = {"GIT_NO_LAZY_FETCH": "1", "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}


def _flatten(text: str) -> str:
    """Collapse every run of whitespace to one space, and trim the ends."""
    return " ".join(text.split())


@dataclass
class _File:
    """One path in a pinned commit: a blob's bytes, or a directory."""

    is_dir: bool
    data: bytes = b""
    _flat: str | None = None

    @property
    def line_count(self) -> int:
        if not self.data:
            return 0
        return self.data.count(b"\n") + (0 if self.data.endswith(b"\n") else 1)

    def contains(self, quote: str) -> bool:
        if self._flat is None:
            self._flat = _flatten(self.data.decode("utf-8", errors="replace"))
        return _flatten(quote) in self._flat


@dataclass
class _Clone:
    """A source's clone with its pinned commit, and every path read from it so far."""

    source: str
    repo: git.Repo
    commit: git.Commit
    files: dict[str, _File | None] = field(default_factory=dict)

    @property
    def revision(self) -> str:
        return self.commit.hexsha[:12]

    def file(self, path: str) -> _File | None:
        """The path at the pinned commit (None when absent), read once."""
        key = _normal(path)
        if key not in self.files:
            self.files[key] = self._read(key)
        return self.files[key]

    def _read(self, path: str) -> _File | None:
        if not path:
            return _File(is_dir=True)
        try:
            item = self.commit.tree / path
        except KeyError:
            return None
        if isinstance(item, git.Blob):
            return _File(is_dir=False, data=item.data_stream.read())
        return _File(is_dir=True)  # a tree, or a submodule's commit: no lines to cite


def _normal(path: str) -> str:
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/")


@dataclass(frozen=True, slots=True)
class _Pinned:
    """A source the system declares or supplies, and where it is declared."""

    id: str
    revision: str | None
    origin: Origin | None


def _pinned_sources(system: CheckedSystem) -> list[_Pinned]:
    records = system.records
    # A document, a web page or any source without git links is not a repository to verify.
    return [
        _Pinned(source_id, source.revision, records.origin(source))
        for source_id, source in records.source_records().items()
        if source.is_repository()
    ]


def _context(system: CheckedSystem) -> Context:
    return build_context(system.records, system.source)


def _open_repo(path: Path) -> git.Repo | None:
    try:
        repo = git.Repo(path)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, OSError, ValueError):
        return None
    repo.git.update_environment(**_READ_ONLY_ENV)
    return repo


class _Checker:
    def __init__(self, system: CheckedSystem, root: Path, missing_hint: str | None = None) -> None:
        self.system = system
        self.root = root
        self.missing_hint = missing_hint
        self.ctx = _context(system)
        self.sources = _pinned_sources(system)
        self.single = self.sources[0].id if len(self.sources) == 1 else None
        self.clones: dict[str, _Clone] = {}
        self.repos: list[git.Repo] = []

    # Sources -----------------------------------------------------------------

    def open_sources(self) -> Iterator[Diagnostic]:
        for pinned in self.sources:
            yield from self._open(pinned)

    def _open(self, pinned: _Pinned) -> Iterator[Diagnostic]:
        if pinned.revision is not None and not HEX_REVISION.fullmatch(pinned.revision):
            yield error(
                KB505,
                f"revision {pinned.revision!r} of {pinned.id} is not a commit ID; "
                "a pinned revision is 7 to 64 hex digits",
                *self.ctx.at(pinned.origin, ("revision",)),
                hint="Pin the full commit ID (git rev-parse HEAD in the clone), not a branch, tag or "
                "relative name.",
            )
            return
        problems: list[Diagnostic] = []
        repo = self._find_repo(pinned, problems)
        yield from problems
        if repo is None:
            return
        self.repos.append(repo)
        declared = self.ctx.at(pinned.origin, ("id",))
        if pinned.revision is None:
            yield warning(
                KB501,
                f"{pinned.id} pins no revision, so its clone cannot be checked",
                *declared,
                hint="Add 'revision:' with the commit the analysis reviewed.",
            )
            return
        try:
            commit = repo.commit(pinned.revision)
            _ = commit.tree  # reads the object: some missing revisions fail only here
        except Exception as exc:  # any git failure means "not available", never a traceback
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            yield warning(
                KB501,
                f"revision {pinned.revision} of {pinned.id} is not in the clone at "
                f"{Path(repo.working_dir or repo.git_dir).as_posix()}: {reason}",
                *self.ctx.at(pinned.origin, ("revision",)),
                hint="Fetch the revision into the clone, or correct the pinned revision.",
            )
            return
        self.clones[pinned.id] = _Clone(pinned.id, repo, commit)

    def _find_repo(self, pinned: _Pinned, problems: list[Diagnostic]) -> git.Repo | None:
        """The clone of a source (``DIR/<system>/<SRC-ID>``, or ``DIR/<system>`` for a
        system's only source); why there is none goes to ``problems``."""
        declared = self.ctx.at(pinned.origin, ("id",))
        folder = self.root / self.system.records.slug / pinned.id
        candidates = [folder, folder.parent] if self.single == pinned.id else [folder]
        found = [c for c in candidates if c.is_dir()]
        if not found:
            if pinned.revision is not None:
                tried = " or ".join(c.as_posix() for c in candidates)
                problems.append(
                    warning(
                        KB501,
                        f"no clone of {pinned.id}: {tried} does not exist; its anchors are not checked",
                        *declared,
                        hint=self.missing_hint
                        or f"Clone the source to {folder.as_posix()} to check its anchors and quotations.",
                    )
                )
            return None
        if _NO_GIT is not None:  # pragma: no cover - depends on the machine
            problems.append(warning(KB501, f"{pinned.id} cannot be checked: {_NO_GIT}", *declared))
            return None
        repo = next((r for r in map(_open_repo, found) if r is not None), None)
        if repo is None:
            problems.append(
                warning(
                    KB501,
                    f"{found[0].as_posix()} is not a git repository; anchors of {pinned.id} are not checked",
                    *declared,
                )
            )
        return repo

    def close(self) -> None:
        for repo in self.repos:
            repo.close()

    # Anchors and quotations --------------------------------------------------

    def citations(self) -> Iterator[Diagnostic]:
        ctx = self.ctx
        for _, origin, contents in ctx.owners:
            for path, anchor in contents.anchors:
                if anchor.path is not None:
                    yield from self._anchor(anchor.source, anchor.path, anchor.ranges, ctx.at(origin, path))
            for text in contents.texts:
                for found in find_anchors(text.text):
                    if not found.is_file:
                        continue
                    yield from self._anchor(
                        found.source, found.path, found.ranges, ctx.in_text(origin, text.path, found.start)
                    )
            for path, quote in contents.quotes:
                yield from self._quote(quote, origin, path)
        for relative, content in sorted(ctx.system.prose.items()):
            display = ctx.system.prose_display.get(relative, relative)
            lines = LineIndex(content)
            for found in find_anchors(content):
                if not found.is_file:
                    continue
                line, col = lines.position(found.start)
                yield from self._anchor(found.source, found.path, found.ranges, (display, line, col))

    def _anchor(
        self, source: str, path: str, ranges: tuple[LineRange, ...], where: Where
    ) -> Iterator[Diagnostic]:
        clone = self.clones.get(source)
        if clone is None or unsafe_path_reason(path):
            return
        file = clone.file(path)
        if file is None:
            yield error(
                KB502,
                f"evidence anchor {source} {path}: no such file at revision {clone.revision}",
                *where,
                hint="Correct the path, or check that the source pins the revision the analysis read.",
            )
        else:
            yield from self._ranges(clone, f"evidence anchor {source} {path}", file, ranges, where)

    def _ranges(
        self, clone: _Clone, what: str, file: _File, ranges: tuple[LineRange, ...], where: Where
    ) -> Iterator[Diagnostic]:
        if not ranges:
            return
        if file.is_dir:
            yield error(
                KB503, f"{what}: cites lines, but it is a directory at revision {clone.revision}", *where
            )
            return
        count = file.line_count
        past = [r for r in ranges if r.end > count]
        if past:
            shown = ",".join(str(r) for r in past)
            yield error(
                KB503,
                f"{what}: line range {shown} runs past the end of the file "
                f"({count} lines at revision {clone.revision})",
                *where,
            )

    def _quote(self, quote: Quote, origin: Origin | None, path: DataPath) -> Iterator[Diagnostic]:
        source = quote.source or self.single
        # A quote pinned on its own (a capture's digest, another commit) is not in this clone.
        if source is None or not quote.path or quote.pin is not None or unsafe_path_reason(quote.path):
            return
        clone = self.clones.get(source)
        if clone is None:
            return
        file = clone.file(quote.path)
        what = f"quotation from {source} {quote.path}"
        if file is None or file.is_dir:
            problem = "no such file" if file is None else "a directory, not a file"
            yield error(
                KB502,
                f"{what}: {problem} at revision {clone.revision}",
                *self.ctx.at(origin, (*path, "path")),
            )
            return
        ranges = tuple(LineRange(pair[0], pair[-1]) for pair in quote.lines)
        yield from self._ranges(clone, what, file, ranges, self.ctx.at(origin, (*path, "lines")))
        if not file.contains(quote.text):
            yield error(
                KB504,
                f"{what}: the quoted text does not occur in the file at revision {clone.revision}",
                *self.ctx.at(origin, (*path, "text")),
                hint="Copy the text from the file at the pinned revision (whitespace may differ).",
            )


def check_against_clones(
    system: CheckedSystem, root: Path, missing_hint: str | None = None
) -> list[Diagnostic]:
    """Check one system's anchors and quotations against local clones under ``root``;
    ``missing_hint`` says how to get a missing clone (default: where to clone it)."""
    checker = _Checker(system, root, missing_hint)
    found: list[Diagnostic] = []
    try:
        found.extend(checker.open_sources())
        found.extend(checker.citations())
    except Exception as exc:  # a broken clone must not end the check with a traceback
        found.append(
            warning(
                KB501,
                f"the clones under {root.as_posix()} could not be read: {type(exc).__name__}: {exc}",
                system.source.display,
            )
        )
    finally:
        checker.close()
    return sorted(set(found), key=lambda d: d.sort_key())
