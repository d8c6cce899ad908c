"""Jinja templates compiled once per machine, not once per build.

Every build compiled the generator's page templates and the theme's (Python code made from
each template's text): about 0.2 s of CPU at 50 systems, much of it before the first
worker forks or before the theme's first page, where a build runs on one core. Jinja's
bytecode cache keeps each compiled template in a file and loads it back when the
template's text is the same (a checksum of the text is stored beside the code), as Python
keeps its modules' bytecode in ``__pycache__``.

Jinja keys a cached template by its name and file only, so the environment's settings
that shape the code it compiles (its delimiters and whitespace options, autoescaping,
extensions, finalize, and how each filter and test is called) and Jinja's version join
the key (``environment_key``), read when the template is loaded: a template compiled
under other settings is never loaded, whatever a plugin added to the environment
meanwhile.

The cache lives outside the project (records and templates arrive as pull requests; a
cached template is code), in a folder only its owner may enter:
``$XDG_CACHE_HOME/kbgen/templates`` (else ``~/.cache/kbgen/templates``), or the folder
``KBGEN_TEMPLATE_CACHE`` names; ``KBGEN_TEMPLATE_CACHE=off`` compiles every build. A
folder that cannot be made, that is a link, or that someone else owns or may enter is not
used, and a cache file that cannot be read or written is passed over: the template is
compiled, as without a cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import Environment, FileSystemBytecodeCache
from jinja2.bccache import Bucket

CACHE_ENV = "KBGEN_TEMPLATE_CACHE"
OFF = frozenset({"", "0", "off", "no", "false"})


class _TemplateCache(FileSystemBytecodeCache):
    """Jinja's file cache, keyed by the environment's settings too, which a file it cannot
    read or write never fails."""

    def get_bucket(self, environment: Environment, name: str, filename: str | None, source: str) -> Bucket:
        key = f"{self.get_cache_key(name, filename)}-{environment_key(environment)}"
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # unreadable, cut short or garbled (its checksum is pickled): compiled anew
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        # A full or read-only disk: the next build compiles the template again.
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def cache_folder() -> Path | None:
    """Where compiled templates are kept, or None: the cache is off."""
    named = os.environ.get(CACHE_ENV)
    if named is not None:
        return None if named.strip().lower() in OFF else Path(named).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):  # no home folder to be found
            return None
    return Path(base) / "kbgen" / "templates"


def _private(folder: Path) -> bool:
    """Make the folder (only its owner may enter it) and tell whether it is a folder of
    this user's that nobody else may write into or read from."""
    try:
        folder.mkdir(mode=stat.S_IRWXU, parents=True, exist_ok=True)
        found = os.lstat(folder)
    except OSError:
        return False
    return (
        stat.S_ISDIR(found.st_mode)
        and found.st_uid == os.getuid()
        and stat.S_IMODE(found.st_mode) & (stat.S_IRWXG | stat.S_IRWXO) == 0
    )


def _called_as(function: Any) -> str:
    """How compiled code calls a filter, a test or finalize (with the context, the
    evaluation context, the environment, or its value alone)."""
    found = getattr(function, "jinja_pass_arg", None)  # set by pass_context and its kin
    return str(getattr(found, "name", found or "value"))


def environment_key(env: Environment) -> str:
    """A digest of what shapes the code ``env`` compiles a template into."""
    autoescape = env.autoescape
    settings = (
        jinja2.__version__,
        env.block_start_string,
        env.block_end_string,
        env.variable_start_string,
        env.variable_end_string,
        env.comment_start_string,
        env.comment_end_string,
        env.line_statement_prefix,
        env.line_comment_prefix,
        env.trim_blocks,
        env.lstrip_blocks,
        env.newline_sequence,
        env.keep_trailing_newline,
        autoescape if isinstance(autoescape, bool) else f"{autoescape.__module__}.{autoescape.__qualname__}",
        env.optimized,
        env.is_async,
        None if env.finalize is None else _called_as(env.finalize),
        sorted(f"{type(ext).__module__}.{type(ext).__qualname__}" for ext in env.extensions.values()),
        sorted((name, _called_as(function)) for name, function in env.filters.items()),
        sorted((name, _called_as(function)) for name, function in env.tests.items()),
    )
    return hashlib.sha256(repr(settings).encode("utf-8")).hexdigest()[:20]


def use_template_cache(env: Environment) -> bool:
    """Give ``env`` the machine's cache of compiled templates; whether it has one (the
    cache may be off or unusable)."""
    folder = cache_folder()
    if folder is None or not _private(folder):
        return False
    env.bytecode_cache = _TemplateCache(str(folder), "__kbgen-%s.cache")
    return True


def caching(make_env: Callable[[], Environment]) -> Callable[[], Environment]:
    """``make_env`` (a theme's ``get_env``), each environment it makes given the cache."""
    if getattr(make_env, "keeps_compiled", False):
        return make_env

    def cached_env() -> Environment:
        env = make_env()
        use_template_cache(env)
        return env

    cached_env.keeps_compiled = True  # type: ignore[attr-defined]
    return cached_env
