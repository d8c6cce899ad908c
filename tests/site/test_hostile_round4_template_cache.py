"""Hostile corpus, fourth round: the template cache (``util/template_cache.py``) runs no code
its owner did not compile.

A cached template is Python code the build runs. Each class of attack below plants or
redirects that code and proves none of it runs: a template whose code would make a marker
file is loaded, the marker never appears, and the template is compiled from its text.

- a folder on the path to the cache that someone else may write into or owns;
- a swap after the environment was made (a link for the folder, its parent or a file);
- a cache file the owner did not write (not sealed with the folder's key);
- a relative folder, or one inside the project's checkout (under ``umask 077`` too).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import marshal
import os
import pickle
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from jinja2 import DictLoader, Environment
from jinja2.bccache import bc_magic
from site_support import make_project

from generator.util.template_cache import CACHE_ENV, environment_key, use_template_cache

TEMPLATES = {"page.html": "{% extends 'base.html' %}{% block body %}{{ title }}{% endblock %}"}
TEMPLATES["base.html"] = "<h1>{% block body %}{% endblock %}</h1>"
ANOTHER_USER = 4242


def _environment() -> Environment:
    """An environment that counts the templates it compiles (``env.compiled``)."""
    env = Environment(loader=DictLoader(TEMPLATES))
    compiled: list[str] = []
    compile = env.compile

    def counted(source: str, name: str | None = None, filename: str | None = None, *args: object) -> object:
        compiled.append(str(name))
        return compile(source, name, filename, *args)  # type: ignore[arg-type]

    env.compile = counted  # type: ignore[method-assign]
    env.compiled = compiled  # type: ignore[attr-defined]
    return env


def _file_name(env: Environment, template: str) -> str:
    """The name of the cache file of ``template`` (a DictLoader template has no file)."""
    return f"__kbgen-{hashlib.sha1(template.encode('utf-8')).hexdigest()}-{environment_key(env)}.cache"


def _code_making(marker: Path) -> bytes:
    """A template's compiled code (it renders ``<h1>kb</h1>``) that first makes ``marker``."""
    planted = f"""
open({str(marker)!r}, "w").close()
name, blocks, debug_info = None, {{}}, ""
def root(context, missing=None, environment=None):
    yield "<h1>kb</h1>"
"""
    return marshal.dumps(compile(planted, "planted", "exec"))


def _sealed(key: bytes, bucket_key: str, code: bytes) -> bytes:
    """A cache file as the cache seals it (the format is no secret; the key is)."""
    digest = hmac.new(key, bucket_key.encode("utf-8") + b"\0" + code, hashlib.sha256).digest()
    return b"kbgen-template-1\n" + digest + code


def _jinja_file(template: str, marker: Path) -> bytes:
    """A cache file as Jinja writes it, for ``template``'s very text, whose code makes ``marker``."""
    checksum = hashlib.sha1(TEMPLATES[template].encode("utf-8")).hexdigest()
    return bc_magic + pickle.dumps(checksum, 2) + _code_making(marker)


class _Unpickled:
    """A pickled value that makes a marker file when it is unpickled."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.marker), "w"))


def _loads_nothing_planted(env: Environment, marker: Path) -> None:
    """The templates render from their text, compiled, and no planted code ran."""
    assert env.get_template("page.html").render(title="kb") == "<h1>kb</h1>"
    assert not marker.exists(), "planted code ran"
    assert sorted(env.compiled) == ["base.html", "page.html"]  # type: ignore[attr-defined]


@pytest.fixture
def private(tmp_path: Path) -> Path:
    """A folder of this user's alone (pytest's temporary folders are made 0700)."""
    assert stat.S_IMODE(tmp_path.stat().st_mode) & 0o077 == 0
    return tmp_path


@pytest.fixture
def marker(tmp_path: Path) -> Path:
    return tmp_path / "planted-code-ran"


def _needs_root() -> None:
    if os.getuid() != 0:
        pytest.skip("giving a folder to another user needs root")


# --- a folder on the path that someone else may write into or owns ------------------------


@pytest.mark.parametrize("mode", [0o777, 0o775, 0o1777], ids=["world-writable", "group-writable", "sticky"])
def test_a_cache_whose_parent_others_may_write_into_is_refused(
    private: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, mode: int
) -> None:
    shared = private / "shared"
    shared.mkdir()
    os.chmod(shared, mode)
    monkeypatch.setenv(CACHE_ENV, str(shared / "templates"))
    env = _environment()
    with caplog.at_level(logging.WARNING, "kbgen.template_cache"):
        assert not use_template_cache(env) and env.bytecode_cache is None
    assert [record.getMessage() for record in caplog.records] == [
        "kbgen: the template cache is off, templates are compiled each build: "
        f"{CACHE_ENV}: {shared} is writable by others (mode {mode:o})"
    ]


def test_a_cache_whose_parent_belongs_to_another_user_is_refused(
    private: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _needs_root()
    theirs = private / "theirs"
    theirs.mkdir(mode=0o755)
    (theirs / "templates").mkdir(mode=0o700)  # made for us beforehand: ours, private
    os.chown(theirs, ANOTHER_USER, ANOTHER_USER)
    monkeypatch.setenv(CACHE_ENV, str(theirs / "templates"))
    assert not use_template_cache(_environment())
    # Deeper: a folder of theirs two levels up is as bad (they may rename what is below it).
    os.chown(theirs, 0, 0)
    deeper = theirs / "mine"
    deeper.mkdir(mode=0o755)
    os.chown(theirs, ANOTHER_USER, ANOTHER_USER)
    monkeypatch.setenv(CACHE_ENV, str(deeper / "templates"))
    assert not use_template_cache(_environment())


@pytest.fixture
def under_tmp() -> Iterator[Path]:
    """A folder right under the shared temporary folder (world-writable, sticky)."""
    folder = Path(tempfile.mkdtemp(prefix="kbgen-hostile-", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_cache_right_under_tmp_is_refused_unless_inside_a_private_folder(
    under_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert Path("/tmp").stat().st_mode & stat.S_IWOTH
    os.chmod(under_tmp, 0o755)
    monkeypatch.setenv(CACHE_ENV, str(under_tmp / "templates"))  # /tmp is its nearest safe-looking bound
    assert not use_template_cache(_environment())
    os.rmdir(under_tmp / "templates")
    monkeypatch.setenv(CACHE_ENV, str(under_tmp))  # the folder itself right under /tmp
    os.chmod(under_tmp, 0o700)
    assert not use_template_cache(_environment())
    # Inside a private folder under /tmp (what the tests' own cache does): trusted.
    monkeypatch.setenv(CACHE_ENV, str(under_tmp / "open" / "templates"))
    (under_tmp / "open").mkdir(mode=0o755)
    assert use_template_cache(_environment())


# --- a swap after the environment was made -------------------------------------------------


@pytest.fixture
def attacker(tmp_path: Path, marker: Path) -> Path:
    """A folder of planted cache files, each making the marker when loaded."""
    planted = tmp_path / "attacker"
    planted.mkdir(mode=0o700)
    env = _environment()
    for template in TEMPLATES:
        (planted / _file_name(env, template)).write_bytes(_jinja_file(template, marker))
    return planted


def test_a_cache_folder_swapped_for_a_link_after_the_check_is_not_followed(
    private: Path, monkeypatch: pytest.MonkeyPatch, attacker: Path, marker: Path
) -> None:
    folder = private / "parent" / "templates"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    env = _environment()
    assert use_template_cache(env)
    folder.rename(private / "parent" / "moved-away")
    folder.symlink_to(attacker)
    _loads_nothing_planted(env, marker)
    planted = sorted(_file_name(env, name) for name in TEMPLATES)
    assert sorted(path.name for path in attacker.iterdir()) == planted  # nothing written there either


def test_a_parent_swapped_for_a_link_after_the_check_is_not_followed(
    private: Path, monkeypatch: pytest.MonkeyPatch, attacker: Path, marker: Path
) -> None:
    parent = private / "parent"
    monkeypatch.setenv(CACHE_ENV, str(parent / "templates"))
    env = _environment()
    assert use_template_cache(env)
    parent.rename(private / "moved-away")
    (private / "elsewhere").mkdir(mode=0o700)
    attacker.rename(private / "elsewhere" / "templates")
    parent.symlink_to(private / "elsewhere")
    _loads_nothing_planted(env, marker)


def test_a_cache_file_swapped_for_a_link_is_neither_read_nor_written_through(
    private: Path, monkeypatch: pytest.MonkeyPatch, attacker: Path, marker: Path
) -> None:
    folder = private / "templates"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    env = _environment()
    assert use_template_cache(env)
    for template in TEMPLATES:
        (folder / _file_name(env, template)).symlink_to(attacker / _file_name(env, template))
    planted = {path.name: path.read_bytes() for path in attacker.iterdir()}
    _loads_nothing_planted(env, marker)
    # The compiled templates replaced the links; the files they led to are untouched.
    assert {path.name: path.read_bytes() for path in attacker.iterdir()} == planted
    assert not any(path.is_symlink() for path in folder.iterdir())


def test_a_folder_that_stops_being_private_is_checked_at_each_load(
    private: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = private / "parent"
    monkeypatch.setenv(CACHE_ENV, str(parent / "templates"))
    first = _environment()
    assert use_template_cache(first)
    first.get_template("page.html")
    second = _environment()
    assert use_template_cache(second)
    os.chmod(parent, 0o777)  # after the environment was given the cache
    assert second.get_template("page.html").render(title="kb") == "<h1>kb</h1>"
    assert sorted(second.compiled) == ["base.html", "page.html"]  # type: ignore[attr-defined]


# --- a cache file the owner did not write ---------------------------------------------------


@pytest.fixture
def cache(private: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A trusted cache folder, its key made by a first build."""
    folder = private / "templates"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    env = _environment()
    assert use_template_cache(env)
    env.get_template("page.html")
    return folder


def _plant(folder: Path, content: object) -> Environment:
    env = _environment()
    for template in TEMPLATES:
        data = content(template) if callable(content) else content
        (folder / _file_name(env, template)).write_bytes(data)  # type: ignore[arg-type]
    assert use_template_cache(env)
    return env


def test_compiled_code_planted_as_jinja_writes_it_does_not_run(cache: Path, marker: Path) -> None:
    _loads_nothing_planted(_plant(cache, lambda template: _jinja_file(template, marker)), marker)


def test_a_pickle_planted_where_the_checksum_goes_is_never_unpickled(cache: Path, marker: Path) -> None:
    unpickled = bc_magic + pickle.dumps(_Unpickled(marker), 2) + _code_making(marker)
    _loads_nothing_planted(_plant(cache, unpickled), marker)


def test_a_file_planted_by_another_user_is_not_loaded(cache: Path, marker: Path) -> None:
    _needs_root()
    env = _plant(cache, lambda template: _jinja_file(template, marker))
    for template in TEMPLATES:
        os.chown(cache / _file_name(env, template), ANOTHER_USER, ANOTHER_USER)
    _loads_nothing_planted(env, marker)


def test_a_file_sealed_with_another_key_is_not_loaded(cache: Path, marker: Path) -> None:
    assert (cache / "key").stat().st_size == 32 and stat.S_IMODE((cache / "key").stat().st_mode) == 0o600
    other_key = b"k" * 32

    def sealed_elsewhere(template: str) -> bytes:
        name = _file_name(_environment(), template)[len("__kbgen-") : -len(".cache")]
        return _sealed(other_key, name, _jinja_file(template, marker))

    _loads_nothing_planted(_plant(cache, sealed_elsewhere), marker)


# --- a relative folder, or one inside the project's checkout --------------------------------


@pytest.mark.parametrize("named", ["kbgen-cache", "./.cache/templates", "records/../cache"])
def test_a_relative_cache_folder_is_refused(
    private: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, named: str
) -> None:
    monkeypatch.chdir(private)
    monkeypatch.setenv(CACHE_ENV, named)
    with caplog.at_level(logging.WARNING, "kbgen.template_cache"):
        assert not use_template_cache(_environment())
    assert "is a relative folder" in caplog.text
    assert list(private.iterdir()) == []  # nothing made where the build happens to run


def test_a_cache_folder_inside_the_project_is_refused(private: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = private / "project"
    (project / "records").mkdir(parents=True, mode=0o700)
    for inside in (project / ".cache" / "templates", project, project / "records" / "cache"):
        monkeypatch.setenv(CACHE_ENV, str(inside))
        assert not use_template_cache(_environment(), [project])
    # Named through a link to the project, the project is still recognised (by its inode).
    (private / "alias").symlink_to(project)
    monkeypatch.setenv(CACHE_ENV, str(project / ".cache" / "templates"))
    assert not use_template_cache(_environment(), [private / "alias"])
    monkeypatch.setenv(CACHE_ENV, str(private / "outside" / "templates"))
    assert use_template_cache(_environment(), [project, project / "records", private / "missing"])


@pytest.fixture
def umask_077() -> Iterator[None]:
    previous = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.mark.slow
def test_a_build_with_its_cache_in_the_checkout_under_umask_077_runs_no_committed_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, kbgen, umask_077: None
) -> None:
    """A checkout made under ``umask 077`` is this user's alone, every folder 0700: were the
    cache's folder inside it, its committed files (a key, and code sealed with it under the
    names the build's templates are cached by) would pass any check of owner and mode."""
    project = make_project(tmp_path / "checkout", git=False)
    monkeypatch.chdir(project)
    learned = tmp_path / "learned"  # a first build outside the checkout: the names it caches by
    monkeypatch.setenv(CACHE_ENV, str(learned))
    assert kbgen("build", "--site-dir", str(tmp_path / "first")).code == 0
    names = [path.name for path in learned.iterdir() if path.name.endswith(".cache")]
    assert names
    committed = project / ".kbgen-cache"
    committed.mkdir(mode=0o700)
    key = b"c" * 32
    (committed / "key").write_bytes(key)
    marker = tmp_path / "planted-code-ran"
    for name in names:
        bucket_key = name[len("__kbgen-") : -len(".cache")]
        (committed / name).write_bytes(_sealed(key, bucket_key, _code_making(marker)))
    before = {path.name: path.read_bytes() for path in committed.iterdir()}
    monkeypatch.setenv(CACHE_ENV, str(committed))
    with caplog.at_level(logging.WARNING, "kbgen.template_cache"):
        result = kbgen("build", "--site-dir", str(tmp_path / "site"))
    assert result.code == 0, result.err
    assert not marker.exists(), "committed code ran"
    assert {path.name: path.read_bytes() for path in committed.iterdir()} == before  # nor written into
    assert f"{committed} is inside {project}, whose contents arrive from others" in caplog.text
