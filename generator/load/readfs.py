"""The only door through which record files are read, and the walk that finds them.

Records are untrusted input: a folder may hold symlinks to ``/proc/self/environ`` or to
``/usr``, FIFOs that would stall a build, hard links, or names that carry terminal
escape sequences. The walk therefore never follows a symlink: it opens each folder
relative to its parent's descriptor with ``O_NOFOLLOW`` and lists it with
``os.scandir`` on that descriptor, and :func:`read_text` opens each file the same way
and checks with ``fstat`` that it is a regular file with a single link before reading
at most the size limit. Every refusal is a located diagnostic; nothing here raises.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass

from generator.diagnostics import Diagnostic, Rule, error, warning
from generator.load.textpos import LineIndex

KB005 = Rule(
    "KB005",
    "file-too-large",
    "A record file exceeds the size limit.",
    doc="file size limit (2 MiB, YAML and Markdown alike)",
)

KB007 = Rule(
    "KB007",
    "unreadable-file",
    "A record file cannot be read as UTF-8 text.",
    doc="not UTF-8 (located at the first bad byte), or a file or folder that cannot be read",
)

KB008 = Rule(
    "KB008",
    "not-a-regular-file",
    "A symlink, FIFO, device or socket is refused, never read.",
    doc=(
        "a symlink, FIFO, device or socket in the records (file or folder, at any depth, or the records "
        "folder itself) is refused and never followed or read"
    ),
)

KB009 = Rule(
    "KB009",
    "path-outside-system",
    "A file may lie outside the system folder (hard link, loop).",
    doc=(
        "a file with more than one hard link (its content may live outside the system folder), or a folder "
        "met twice"
    ),
)

KB010 = Rule(
    "KB010",
    "ignored-name",
    "A file or folder is not read: hidden name or not a record type.",
    doc=(
        "warning: a name that is not read — starts with `.` or `_`, a suffix other than `.yaml`, `.yml`, "
        "`.md` (upper-case `.YAML` too), a file beside the system folders"
    ),
)

KB011 = Rule(
    "KB011",
    "nesting-too-deep",
    "YAML values or folders nest deeper than the limit.",
    doc=(
        "YAML collections nest deeper than 64 levels (located where the limit is crossed), or folders deeper "
        "than 16"
    ),
)


KB012 = Rule(
    "KB012",
    "control-character",
    "A file holds a NUL or another control character.",
    doc=(
        "a NUL or other control character (not tab, LF, CR) in a YAML or Markdown file, or made by a quoted "
        'scalar\'s escape (`"\\e"`, `"\\0"`); CRLF and bare CR are read as LF'
    ),
)

KB013 = Rule(
    "KB013",
    "line-separator",
    "A record file holds NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR (YAML breaks lines there).",
    doc=(
        "a NEL (U+0085), LINE SEPARATOR (U+2028) or PARAGRAPH SEPARATOR (U+2029) in a YAML or Markdown "
        "record file: YAML breaks lines there, the checker, GitHub annotations and editors do not, so every "
        "later position would differ between them (located at the first one; a quoted scalar's escape, "
        '`"\\L"`, moves no position: the value then spans lines, and KB109 applies)'
    ),
)

KB014 = Rule(
    "KB014",
    "file-name",
    "A record file or folder name is outside the record-name grammar.",
    doc=(
        "a file or folder that would be read has a name outside the grammar: letters, digits, `.`, `_` and "
        "`-`, starting with a letter or digit, a file ending in `.yaml`, `.yml` or `.md` (refused, not read; "
        "located at the file's 1:1 or at the folder). The name becomes a page's edit link and a path in "
        "diagnostics and the site; a name KB010 passes over (hidden, or another suffix) is never read "
        "and gets KB010's warning instead"
    ),
)

MAX_FILE_BYTES = 2 * 1024 * 1024  # YAML and Markdown alike
MAX_FOLDER_DEPTH = 16
RECORD_SUFFIXES = (".yaml", ".yml")
PROSE_SUFFIX = ".md"

_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0)

# Characters YAML does not allow in a stream (C0 controls but tab, LF and CR; DEL; C1 but
# NEL; the non-characters U+FFFE/U+FFFF). Markdown prose is held to the same set: such a
# character is never intended, and an escape sequence could rewrite a reader's terminal.
CONTROL_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ufffe\uffff]")
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")

# Line breaks YAML counts but nothing else here does: libyaml ends a line at NEL, LINE
# SEPARATOR and PARAGRAPH SEPARATOR, while the checker, the GitHub annotations and the
# language server (whose protocol knows LF, CRLF and CR only) do not. One such character
# in a value would move every later position of the file, so a record file holding one
# is refused (KB013) instead of being read with two notions of a line.
LINE_SEPARATOR = re.compile("[\x85\u2028\u2029]")


def printable(name: str) -> str:
    """A path as diagnostics show it: control characters become visible escapes."""
    if not _UNPRINTABLE.search(name):
        return name
    return _UNPRINTABLE.sub(lambda m: repr(m.group(0))[1:-1], name)


def read_text(dir_fd: int, name: str, display: str) -> tuple[str | None, list[Diagnostic]]:
    """Read one regular file ``name`` in the open folder ``dir_fd`` as UTF-8 text.

    Refuses (with a diagnostic at ``display``:1:1 or at the offending character) a
    symlink, anything but a regular file, a file with more than one hard link, a file
    over the size limit, bytes that are not UTF-8 and control characters.
    """
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, [not_regular(display, "a symlink")]
        return None, [error(KB007, f"cannot read file: {exc.strerror}", display)]
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, [not_regular(display, _kind_of_mode(info.st_mode))]
        if info.st_nlink > 1:
            return None, [_hard_link(display, info.st_nlink)]
        limit = MAX_FILE_BYTES
        if info.st_size > limit:
            return None, [too_large(display, info.st_size, limit)]
        data = _read_at_most(fd, limit + 1)
    except OSError as exc:
        return None, [error(KB007, f"cannot read file: {exc.strerror}", display)]
    finally:
        os.close(fd)
    if len(data) > limit:  # the file grew after fstat
        return None, [too_large(display, len(data), limit)]
    return _decode(data, display)


def editor_text(text: str, display: str) -> tuple[str | None, list[Diagnostic]]:
    """A file's unsaved text, as an editor holds it, held to the rules of :func:`read_text`:
    the size limit, UTF-8 and no control characters."""
    data = text.encode("utf-8", errors="surrogatepass")
    if len(data) > MAX_FILE_BYTES:
        return None, [too_large(display, len(data), MAX_FILE_BYTES)]
    return _decode(data, display)  # a lone surrogate is not UTF-8: KB007 at its place


def readable_relative(relative: str) -> bool:
    """Whether a path below a system folder names a file the walk would read: every folder
    and the file pass :func:`ignored_reason`, within the depth limit."""
    parts = relative.split("/")
    if not relative or len(parts) > MAX_FOLDER_DEPTH or any(part in ("", ".", "..") for part in parts):
        return False
    return all(
        ignored_reason(part, is_dir=index < len(parts) - 1) is None for index, part in enumerate(parts)
    )


def relative_name_refusal(relative: str, display: str) -> Diagnostic | None:
    """KB014 for the first folder or file of a readable path below a system folder that is
    outside the record-name grammar (an editor's unsaved file, held to the walk's rule)."""
    parts = relative.split("/")
    for index, part in enumerate(parts):
        is_dir = index < len(parts) - 1
        shown = display + "/".join(printable(p) for p in parts[: index + 1]) + "/" * is_dir
        refusal = name_refusal(part, is_dir, shown)
        if refusal is not None:
            return refusal
    return None


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = os.read(fd, min(1 << 20, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _decode(data: bytes, display: str) -> tuple[str | None, list[Diagnostic]]:
    try:
        text = data.decode("utf-8-sig")  # a leading byte-order mark is not content
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - data.rfind(b"\n", 0, exc.start)
        return None, [error(KB007, f"not UTF-8 text: byte 0x{data[exc.start]:02x}", display, line, col)]
    if "\r" in text:
        # One kind of line break from here on: YAML and Python-Markdown both break lines at
        # a bare CR, the rest of the pipeline at LF only; each CR or CRLF is one LF, so line
        # numbers stay as a YAML parser counts them.
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    bad = CONTROL_CHARACTER.search(text)
    if bad is not None:
        line, col = LineIndex(text).position(bad.start())
        return None, [
            error(
                KB012,
                f"control character U+{ord(bad.group(0)):04X} is not allowed",
                display,
                line,
                col,
                hint="Remove it; write a tab, a newline or visible text instead.",
            )
        ]
    return text, []


def line_separator(text: str, display: str) -> Diagnostic | None:
    """KB013 at the first NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR of a record file.

    Located by LF lines, the only kind the text has by now: everything before the
    character is counted the same by YAML and by this project, so the place is exact.
    Applied to record files (YAML and Markdown prose), not at the door itself: a
    document read for import is not a record file. A quoted scalar's escape (``"\\L"``)
    makes one inside a value without moving a position of the file: a value holding one
    spans lines, as a value holding ``"\\n"`` does (KB109 where it must be one line).
    """
    if "\x85" not in text and "\u2028" not in text and "\u2029" not in text:
        return None  # three searches for one character each are quicker than the class
    bad = LINE_SEPARATOR.search(text)
    if bad is None:
        return None
    line, col = LineIndex(text).position(bad.start())
    codepoint = ord(bad.group(0))
    return error(
        KB013,
        f"{_SEPARATOR_NAMES[codepoint]} U+{codepoint:04X} is not allowed: "
        "YAML reads it as a line break, editors do not",
        display,
        line,
        col,
        hint="Replace it with a space, or with a newline where a new line is meant.",
    )


_SEPARATOR_NAMES = {0x85: "next line (NEL)", 0x2028: "line separator", 0x2029: "paragraph separator"}


def _kind_of_mode(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def not_regular(display: str, what: str) -> Diagnostic:
    return error(
        KB008,
        f"refused: this is {what}; records are read only from regular files and folders",
        display,
        hint="Copy the content into the system folder as a regular file.",
    )


def _hard_link(display: str, links: int) -> Diagnostic:
    return error(
        KB009,
        f"refused: the file has {links} hard links, so its content may live outside the system folder",
        display,
        hint="Replace the hard link with a copy of the file.",
    )


def too_large(display: str, size: int, limit: int) -> Diagnostic:
    return error(
        KB005,
        f"file is {size} bytes; the limit is {limit}",
        display,
        hint="Split the records over several files, or move long prose into several Markdown files.",
    )


@dataclass
class FolderEntry:
    """A file the walk found and may read: its path relative to the walked folder."""

    relative: str
    display: str
    dir_fd: int
    name: str


def entry_kind(entry: os.DirEntry[str]) -> str:
    """'dir', 'file' or the refusal wording, never following a symlink."""
    try:
        if entry.is_symlink():
            return "a symlink"
        if entry.is_dir(follow_symlinks=False):
            return "dir"
        if entry.is_file(follow_symlinks=False):
            return "file"
        return _kind_of_mode(entry.stat(follow_symlinks=False).st_mode)
    except OSError:
        return "unreadable"


def ignored_reason(name: str, is_dir: bool) -> str | None:
    """Why a name in a system folder is not read, or None when it is read."""
    if name.startswith((".", "_")):
        return "its name starts with '.' or '_'"
    if is_dir:
        return None
    suffix = os.path.splitext(name)[1]
    if suffix in RECORD_SUFFIXES or suffix == PROSE_SUFFIX:
        return None
    if suffix.lower() in (*RECORD_SUFFIXES, PROSE_SUFFIX):
        return f"its suffix {suffix!r} is not lower-case ({suffix.lower()!r})"
    return "only .yaml, .yml and .md files are read"


# What a read name may be (KB014): it ends up in edit links, diagnostics and URLs, where
# quotes, angle brackets, spaces, `%`, `#` or `?` would each mean something.
_RECORD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\Z")


def name_refusal(name: str, is_dir: bool, display: str) -> Diagnostic | None:
    """KB014 for a name :func:`ignored_reason` lets through but the record-name grammar
    does not (``display`` is the file, or the folder with its ``/``), else None."""
    if _RECORD_NAME.match(name):
        return None
    what = "folder" if is_dir else "file"
    return error(
        KB014,
        f"refused: the {what} name {printable(name)!r} may hold only letters, digits, '.', '_' and '-', "
        "starting with a letter or digit",
        display,
        hint=f"Rename it, e.g. to {'runtime-records' if is_dir else 'routes-2.yaml'!r}.",
    )


def walk_system(
    root_fd: int, display: str, skip: frozenset[str] = frozenset()
) -> Iterator[tuple[FolderEntry | None, list[Diagnostic]]]:
    """Every readable file below the open folder ``root_fd``, depth first in name order.

    Yields (entry, []) for files to read (``entry.dir_fd`` is open while the caller
    handles the entry) and (None, diagnostics) for what is refused or ignored. Folders
    named in ``skip`` directly below the root are passed over (a system's ``runs/``
    holds other runs, each loaded on its own).
    """
    seen: set[tuple[int, int]] = set()
    yield from _walk_folder(root_fd, "", display, 0, seen, skip)


def _walk_folder(
    fd: int,
    relative: str,
    display: str,
    depth: int,
    seen: set[tuple[int, int]],
    skip: frozenset[str] = frozenset(),
) -> Iterator[tuple[FolderEntry | None, list[Diagnostic]]]:
    info = os.fstat(fd)
    if (info.st_dev, info.st_ino) in seen:
        yield None, [error(KB009, "refused: this folder was already read (a folder loop)", display)]
        return
    seen.add((info.st_dev, info.st_ino))
    with os.scandir(fd) as listing:
        entries = sorted(listing, key=lambda e: e.name)
    for entry in entries:
        if entry.name in skip:
            continue  # read (or refused) on its own: a system's runs/
        child_relative = f"{relative}{entry.name}"
        child_display = f"{display}{printable(entry.name)}"
        kind = entry_kind(entry)
        if kind not in ("dir", "file"):
            yield None, [not_regular(child_display, kind)]
            continue
        reason = ignored_reason(entry.name, kind == "dir")
        if reason is not None:
            yield None, [ignored(child_display + "/" * (kind == "dir"), reason)]
            continue
        refusal = name_refusal(entry.name, kind == "dir", child_display + "/" * (kind == "dir"))
        if refusal is not None:
            yield None, [refusal]
            continue
        if kind == "file":
            yield FolderEntry(child_relative, child_display, fd, entry.name), []
            continue
        if depth + 1 >= MAX_FOLDER_DEPTH:
            yield (
                None,
                [error(KB011, f"folders nest deeper than {MAX_FOLDER_DEPTH} levels", child_display + "/")],
            )
            continue
        yield from _walk_child(fd, entry.name, child_relative, child_display, depth, seen)


def _walk_child(
    fd: int, name: str, relative: str, display: str, depth: int, seen: set[tuple[int, int]]
) -> Iterator[tuple[FolderEntry | None, list[Diagnostic]]]:
    try:
        child = os.open(name, _DIR_FLAGS, dir_fd=fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            yield None, [not_regular(display + "/", "a symlink")]
        else:
            yield None, [error(KB007, f"cannot read folder: {exc.strerror}", display + "/")]
        return
    try:
        yield from _walk_folder(child, relative + "/", display + "/", depth + 1, seen)
    finally:
        os.close(child)


def ignored(display: str, reason: str) -> Diagnostic:
    return warning(
        KB010,
        f"not read: {reason}",
        display,
        hint="Rename it if it holds records or prose; move it out of the records folder otherwise.",
    )


def open_folder(path: str, display: str) -> tuple[int | None, list[Diagnostic]]:
    """Open a folder without following a symlink at its last component."""
    try:
        return os.open(path, _DIR_FLAGS), []
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            return None, [not_regular(display, "a symlink or not a folder")]
        return None, [error(KB007, f"cannot read folder: {exc.strerror}", display)]
