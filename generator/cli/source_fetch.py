"""kbgen sources fetch: each git source's pinned revision, fetched into a local cache.

The cache holds one bare repository per source at ``CACHE/<system-slug>/<SRC-ID>``,
the layout ``kbgen check --sources`` reads, so ``kbgen check --verify`` checks anchors
and quotations against it with no hand-made clones.

Fetching
    A source is fetched when it has an ``http``/``https`` ``location`` and pins a hex
    commit ID. A revision already in the cache is not fetched again (CI keeps the
    folder between runs). Otherwise the full commit ID is fetched shallowly (depth 1,
    where the host serves unadvertised commits); an abbreviated ID, or a host that
    refuses, gets every branch and tag instead. The commit is then kept by a ref of
    its own (``refs/kb/pinned``).

    The location is handed to git exactly as written, so git's own URL rewriting
    applies: ``url.<base>.insteadOf`` from any git configuration, including
    ``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_<n>``/``GIT_CONFIG_VALUE_<n>`` in the
    environment. Tests and air-gapped CI point a real ``https`` location at a local
    mirror this way, with no network.

Rules (each source is reported once, at its declaration)
    KB505 (error): the pinned revision is not a hex commit ID (as ``--sources``).
    KB506 (warning): the source cannot be fetched: its location is unreachable or
          refuses the fetch, or it pins a revision but names no location.
    KB507 (warning): the location was fetched but does not hold the pinned revision.
    KB508 (error): the location's host is not public (loopback, link-local, private, …,
          however written): it is never contacted (``fetch_hosts``).
    KB411 (error): the location is not in the form a browser (or git) follows: it would
          be fetched from where it normalises to, so it is not fetched.

Records are never written. git never prompts for credentials, and each fetch is
bounded by a timeout.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import git
from rich.console import Console

from generator.check import CheckedSystem
from generator.check.rules import build_context
from generator.check.site_rules import KB411
from generator.cli.clone_check import HEX_REVISION, KB505
from generator.cli.fetch_hosts import location_refusal
from generator.diagnostics import Diagnostic, Rule, error, warning
from generator.model.url_policy import normal_form_problem
from generator.util.progress import progress_bar

KB506 = Rule(
    "KB506",
    "source-unreachable",
    "A source's location cannot be fetched (or it has none).",
    doc=(
        "`kbgen sources fetch`: warning: a source's location cannot be fetched (unreachable, refused), or it "
        "pins a revision but names no location"
    ),
)

KB507 = Rule(
    "KB507",
    "revision-not-fetched",
    "A source's location does not hold its pinned revision.",
    doc="`kbgen sources fetch`: warning: the location was fetched but does not hold the pinned revision",
)

KB508 = Rule(
    "KB508",
    "source-host-private",
    "A source's location names a host that is not public; not fetched.",
    doc=(
        "`kbgen sources fetch`: error: the location's host is not public (loopback, link-local, private, "
        "unique-local, unspecified, multicast, reserved, however written, or an IPv6 address carrying such "
        "an IPv4 one: IPv4-mapped or -compatible, 6to4, Teredo, NAT64); it is not contacted (allow a "
        "private mirror with `--allow-host`)"
    ),
)

DEFAULT_CACHE = Path(".kbgen/sources")
FETCH_TIMEOUT_SECONDS = 900
PINNED_REF = "refs/kb/pinned"
# Every branch and tag, for revisions a host will not serve on their own.
ALL_REFS = ("+refs/heads/*:refs/kb/heads/*", "+refs/tags/*:refs/kb/tags/*")
# Never wait for a password, never start an editor or pager.
_QUIET_GIT = {"GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": "", "GCM_INTERACTIVE": "never"}

Where = tuple[str, int, int]
_STDERR = re.compile(r"stderr: '(.*)'\s*\Z", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Wanted:
    """One source to fetch: where its commit comes from and where it is declared."""

    system: str
    id: str
    location: str
    revision: str
    declared: Where
    at_location: Where
    at_revision: Where


@dataclass
class FetchOutcome:
    """What one run did: sources fetched now, found in the cache, and not fetched."""

    fetched: int = 0
    cached: int = 0
    failed: int = 0


def wanted_sources(
    system: CheckedSystem, allowed: frozenset[str] = frozenset()
) -> tuple[list[Wanted], list[Diagnostic]]:
    """The system's fetchable sources, and a diagnostic for each that cannot be fetched;
    a location whose host is not public is refused (``fetch_hosts``) unless ``allowed``."""
    ctx = build_context(system.records, system.source)
    wanted: list[Wanted] = []
    problems: list[Diagnostic] = []
    for source_id, source in system.records.source_records().items():
        origin = system.records.origin(source)
        revision = source.revision
        if revision is None or not source.is_repository():
            continue  # nothing pinned, or not a repository (a paper, a capture): nothing to fetch
        if not HEX_REVISION.fullmatch(revision):
            problems.append(
                error(
                    KB505,
                    f"revision {revision!r} of {source_id} is not a commit ID; "
                    "a pinned revision is 7 to 64 hex digits",
                    *ctx.at(origin, ("revision",)),
                )
            )
            continue
        location = str(source.location) if source.location is not None else None
        if location is None or urlsplit(location).scheme not in ("http", "https"):
            if location is None:
                problems.append(
                    warning(
                        KB506,
                        f"{source_id} pins revision {revision} but has no location to fetch it from",
                        *ctx.at(origin, ("id",)),
                        hint="Add 'location:' with the repository's https URL.",
                    )
                )
            continue  # a location that is not http(s) is KB406's business
        refused = location_refusal(location, allowed)
        if refused is not None:
            problems.append(
                error(
                    KB508,
                    f"{source_id} is not fetched from {location}: {refused}",
                    *ctx.at(origin, ("location",)),
                    hint="Name the public repository; a mirror is git's url.<base>.insteadOf, and a "
                    "maintainer allows a private host with --allow-host or KBGEN_ALLOW_HOSTS.",
                )
            )
            continue
        form = normal_form_problem(location)
        if form is not None:  # git, like a browser, would fetch from where it normalises to
            problems.append(
                error(
                    KB411,
                    f"{source_id} is not fetched from {location!r}: it {form}",
                    *ctx.at(origin, ("location",)),
                    hint="Write the repository's URL as a browser reads it; it is fetched as written.",
                )
            )
            continue
        wanted.append(
            Wanted(
                system.records.slug,
                source_id,
                location,
                revision,
                ctx.at(origin, ("id",)),
                ctx.at(origin, ("location",)),
                ctx.at(origin, ("revision",)),
            )
        )
    return wanted, problems


def _cache_repo(folder: Path) -> git.Repo:
    """The bare repository of one source in the cache, created when missing."""
    try:
        repo = git.Repo(folder)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        folder.mkdir(parents=True, exist_ok=True)
        repo = git.Repo.init(folder, bare=True)
    repo.git.update_environment(**_QUIET_GIT)
    # A public host must not send the fetch on to a private one (fetch_hosts).
    repo.git.set_persistent_git_options(c="http.followRedirects=false")
    return repo


def _commit(repo: git.Repo, revision: str) -> git.Commit | None:
    """The pinned commit when the cache holds it (its tree readable), else None."""
    try:
        commit = repo.commit(revision)
        _ = commit.tree
        return commit
    except Exception:  # any lookup failure means "not in the cache"
        return None


def _git_reason(exc: git.GitCommandError) -> str:
    """git's own explanation: its first 'fatal:' or 'error:' line, else the first line."""
    text = str(exc.stderr or "")
    quoted = _STDERR.search(text)  # GitPython shows stderr as "stderr: '<text>'"
    lines = [line.strip() for line in (quoted.group(1) if quoted else text).splitlines() if line.strip()]
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line
    return lines[0] if lines else f"git exited with status {exc.status}"


def _fetch(repo: git.Repo, location: str, *refspecs: str, shallow: bool = False) -> None:
    options = ["--no-tags", "--quiet", *(["--depth=1"] if shallow else [])]
    # '--' ends the options: the location is data, never an option.
    repo.git.fetch(*options, "--", location, *refspecs, kill_after_timeout=FETCH_TIMEOUT_SECONDS)


def _fetch_pinned(repo: git.Repo, wanted: Wanted) -> str | None:
    """Fetch what holds the pinned commit; why the location could not be fetched, if so."""
    if len(wanted.revision) in (40, 64):
        try:
            _fetch(repo, wanted.location, wanted.revision, shallow=True)
            return None
        except git.GitCommandError:
            pass  # the host serves no unadvertised commits, or lacks this one: fetch the branches
    try:
        _fetch(repo, wanted.location, *ALL_REFS)
    except git.GitCommandError as exc:
        return _git_reason(exc)
    return None


def fetch_source(wanted: Wanted, cache: Path) -> tuple[str, Diagnostic | None]:
    """Fetch one source's pinned commit into the cache: ('fetched'|'cached'|'failed', problem)."""
    repo = _cache_repo(cache / wanted.system / wanted.id)
    try:
        if _commit(repo, wanted.revision) is not None:
            return "cached", None
        reason = _fetch_pinned(repo, wanted)
        if reason is not None:
            return "failed", _unreachable(wanted, reason)
        commit = _commit(repo, wanted.revision)
        if commit is None:
            return "failed", _unknown_revision(wanted)
        repo.git.update_ref(PINNED_REF, commit.hexsha)
        return "fetched", None
    finally:
        repo.close()


def _unreachable(wanted: Wanted, reason: str) -> Diagnostic:
    return warning(
        KB506,
        f"{wanted.id} cannot be fetched from {wanted.location}: {reason}",
        *wanted.at_location,
        hint="Check the location, or point it at a mirror with git's url.<base>.insteadOf.",
    )


def _unknown_revision(wanted: Wanted) -> Diagnostic:
    return warning(
        KB507,
        f"revision {wanted.revision} of {wanted.id} is not at {wanted.location}",
        *wanted.at_revision,
        hint="Pin a commit the repository holds (git rev-parse HEAD in a clone of it).",
    )


def fetch_all(
    systems: list[CheckedSystem], cache: Path, console: Console, allowed: frozenset[str] = frozenset()
) -> FetchOutcome:
    """Fetch every system's sources; each system's diagnostics become the fetch problems."""
    outcome = FetchOutcome()
    plans = [(system, *wanted_sources(system, allowed)) for system in systems]
    total = sum(len(wanted) for _, wanted, _ in plans)
    with progress_bar(console, "fetching sources", total) as (progress, task):
        for system, wanted, problems in plans:
            found = list(problems)
            for source in wanted:
                progress.update(task, description=f"fetching {source.system} {source.id}")
                state, problem = fetch_source(source, cache)
                setattr(outcome, state, getattr(outcome, state) + 1)
                if problem is not None:
                    found.append(problem)
                progress.advance(task)
            outcome.failed += len(problems)
            system.diagnostics = sorted(set(found), key=lambda d: d.sort_key())
    return outcome


def cache_folder(option: str | None) -> Path:
    """The cache folder: the option, else ``KBGEN_SOURCES_CACHE``, else ``.kbgen/sources``."""
    return Path(option or os.environ.get("KBGEN_SOURCES_CACHE") or DEFAULT_CACHE)
