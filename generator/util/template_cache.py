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
cached template is code): ``$XDG_CACHE_HOME/kbgen/templates`` (else
``~/.cache/kbgen/templates``), or the absolute folder ``KBGEN_TEMPLATE_CACHE`` names;
``KBGEN_TEMPLATE_CACHE=off`` compiles every build. Trust rests on three things:

- the folder and the path to it are its owner's alone, checked at every read and write
  by an ``O_NOFOLLOW`` walk whose descriptor the files are then opened relative to
  (``util/private_folder.py``); a relative folder, or one inside the project's checkout
  or records, is refused;
- every file carries an HMAC-SHA256 of its template's key and compiled code, under a
  random key kept in the folder (``key``, 0600): a file someone else wrote cannot match
  it, and is neither unpickled nor loaded, only compiled over;
- files are written whole (a temporary file made with ``O_EXCL|O_NOFOLLOW``, then renamed
  within the folder).

A cache refused when an environment is given it is off for that environment, said in one
logged line; the build goes on and compiles its templates. A file that cannot be read,
written or verified is passed over the same way.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import logging
import os
import secrets
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import BytecodeCache, Environment
from jinja2.bccache import Bucket

from generator.util.private_folder import FolderId, Refused, folder_ids, private_folder

CACHE_ENV = "KBGEN_TEMPLATE_CACHE"
OFF = frozenset({"", "0", "off", "no", "false"})
KEY_FILE = "key"
KEY_BYTES = 32
SEAL = b"kbgen-template-1\n"  # what a sealed file starts with, then its digest
MAX_FILE_BYTES = 64 * 1024 * 1024  # far above any compiled template; a bigger file is not read
_FILE_FLAGS = os.O_NOFOLLOW | os.O_CLOEXEC
_LOG = logging.getLogger("kbgen.template_cache")


class _TemplateCache(BytecodeCache):
    """Compiled templates in a folder its owner alone controls, each file sealed with the
    folder's key; keyed by the environment's settings too. A file it cannot read, write or
    verify never fails a build: the template is compiled."""

    def __init__(self, folder: Path, untrusted: frozenset[FolderId]) -> None:
        self.folder = folder
        self.untrusted = untrusted

    def get_bucket(self, environment: Environment, name: str, filename: str | None, source: str) -> Bucket:
        key = f"{self.get_cache_key(name, filename)}-{environment_key(environment)}"
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            with private_folder(self.folder, self.untrusted) as folder:
                key = _read_key(folder)
                sealed = _read_file(folder, _file_name(bucket)) if key is not None else None
        except (OSError, Refused):
            return
        code = None if key is None or sealed is None else _unsealed(key, bucket.key, sealed)
        if code is None:
            return
        try:
            bucket.bytecode_from_string(code)
        except Exception:  # sealed by this user yet garbled (another Python's marshal): compiled anew
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is None:
            return
        code = bucket.bytecode_to_string()
        # A full or read-only disk, or a folder no longer trusted: the next build compiles again.
        trusted = private_folder(self.folder, self.untrusted, create=True)
        with contextlib.suppress(OSError, Refused), trusted as folder:
            key = _read_key(folder) or _make_key(folder)
            if key is not None:
                _write_whole(folder, _file_name(bucket), _sealed(key, bucket.key, code))


def _file_name(bucket: Bucket) -> str:
    return f"__kbgen-{bucket.key}.cache"


def _digest(key: bytes, name: str, code: bytes) -> bytes:
    return hmac.new(key, name.encode("utf-8") + b"\0" + code, hashlib.sha256).digest()


def _sealed(key: bytes, name: str, code: bytes) -> bytes:
    return SEAL + _digest(key, name, code) + code


def _unsealed(key: bytes, name: str, sealed: bytes) -> bytes | None:
    """The compiled code, if this folder's key sealed it for this template; else None."""
    size = len(SEAL) + hashlib.sha256().digest_size
    if len(sealed) < size or not sealed.startswith(SEAL):
        return None
    digest, code = sealed[len(SEAL) : size], sealed[size:]
    return code if hmac.compare_digest(digest, _digest(key, name, code)) else None


def _read_file(folder: int, name: str, size: int | None = None) -> bytes | None:
    """A regular file of this user's, none but its owner may read, in the open folder
    (never through a link); None if it is missing or not such a file."""
    try:
        # Non-blocking: a FIFO in its place must not hold the build (it is then refused).
        descriptor = os.open(name, os.O_RDONLY | os.O_NONBLOCK | _FILE_FLAGS, dir_fd=folder)
    except FileNotFoundError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        found = os.fstat(handle.fileno())
        if (
            not stat.S_ISREG(found.st_mode)
            or found.st_uid != os.getuid()
            or stat.S_IMODE(found.st_mode) & (stat.S_IRWXG | stat.S_IRWXO)
            or found.st_size > MAX_FILE_BYTES
            or (size is not None and found.st_size != size)
        ):
            return None
        return handle.read(MAX_FILE_BYTES + 1)


def _read_key(folder: int) -> bytes | None:
    key = _read_file(folder, KEY_FILE, KEY_BYTES)
    return key if key is not None and len(key) == KEY_BYTES else None


def _make_key(folder: int) -> bytes | None:
    """The folder's key, made now if it has none (another build may make it meanwhile: the
    first one linked into place is everyone's)."""
    temporary = _write_new(folder, f".{KEY_FILE}.", secrets.token_bytes(KEY_BYTES))
    try:
        with contextlib.suppress(FileExistsError):
            os.link(temporary, KEY_FILE, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
    finally:
        os.unlink(temporary, dir_fd=folder)
    return _read_key(folder)


def _write_new(folder: int, prefix: str, data: bytes) -> str:
    """A new file (its owner's alone) in the open folder holding ``data``; its name."""
    name = f"{prefix}{secrets.token_hex(8)}.tmp"
    descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _FILE_FLAGS, 0o600, dir_fd=folder)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
    except BaseException:
        os.unlink(name, dir_fd=folder)
        raise
    return name


def _write_whole(folder: int, name: str, data: bytes) -> None:
    """``name`` in the open folder replaced by ``data`` at once: a reader sees the old
    file or the new one, never a part."""
    temporary = _write_new(folder, f".{name}.", data)
    try:
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        os.unlink(temporary, dir_fd=folder)
        raise


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


@functools.lru_cache(maxsize=16)  # one line per refusal, however many environments are made
def _say_off(reason: str) -> None:
    _LOG.warning("kbgen: the template cache is off, templates are compiled each build: %s", reason)


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


def use_template_cache(env: Environment, untrusted: Sequence[Path] = ()) -> bool:
    """Give ``env`` the machine's cache of compiled templates; whether it has one (the
    cache may be off or refused). ``untrusted``: the folders whose contents arrive from
    others (the project's checkout, its records), which the cache may not be inside."""
    folder = cache_folder()
    if folder is None:
        return False
    refused = frozenset(folder_ids(untrusted))
    try:
        with private_folder(folder, refused, create=True):
            pass
    except Refused as exc:
        _say_off(f"{CACHE_ENV if CACHE_ENV in os.environ else 'the cache folder'}: {exc}")
        return False
    except OSError as exc:
        _say_off(f"{folder} cannot be made or opened ({exc.strerror or exc})")
        return False
    env.bytecode_cache = _TemplateCache(folder, refused)
    return True


def caching(make_env: Callable[[], Environment], untrusted: Sequence[Path] = ()) -> Callable[[], Environment]:
    """``make_env`` (a theme's ``get_env``), each environment it makes given the cache."""
    kept = tuple(untrusted)
    if getattr(make_env, "untrusted_folders", None) == kept:
        return make_env  # a theme configured again is wrapped once
    make_env = getattr(make_env, "makes_uncached", make_env)

    def cached_env() -> Environment:
        env = make_env()
        use_template_cache(env, kept)
        return env

    cached_env.makes_uncached = make_env  # type: ignore[attr-defined]
    cached_env.untrusted_folders = kept  # type: ignore[attr-defined]
    return cached_env
