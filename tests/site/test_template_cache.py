"""Templates are compiled once per machine (generator/util/template_cache.py): a build with
the cache cold, warm or off writes the same site, a warm build compiles no template, and a
cache the build cannot trust or use is passed over, never failed on."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from forking_script import run_script
from jinja2 import DictLoader, Environment, pass_context
from site_support import make_project, tree_hashes

from generator.util import template_cache
from generator.util.template_cache import CACHE_ENV, cache_folder, environment_key, use_template_cache

TEMPLATES = {"page.html": "{% extends 'base.html' %}{% block body %}{{ title | upper }}{% endblock %}"}
TEMPLATES["base.html"] = "<h1>{% block body %}{% endblock %}</h1>"


def _environment(**options: object) -> Environment:
    env = Environment(loader=DictLoader(TEMPLATES), **options)  # type: ignore[arg-type]
    compiled: list[str] = []
    compile = env.compile

    def counted(source: str, name: str | None = None, filename: str | None = None, *args: object) -> object:
        compiled.append(str(name))
        return compile(source, name, filename, *args)  # type: ignore[arg-type]

    env.compile = counted  # type: ignore[method-assign]
    env.compiled = compiled  # type: ignore[attr-defined]
    return env


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache" / "templates"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


def test_a_template_is_compiled_once_and_loaded_after(folder: Path) -> None:
    first = _environment()
    assert use_template_cache(first)
    assert first.get_template("page.html").render(title="kb") == "<h1>KB</h1>"
    assert sorted(first.compiled) == ["base.html", "page.html"]  # type: ignore[attr-defined]
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert sorted(path.suffix for path in folder.iterdir()) == ["", ".cache", ".cache"]  # and the key
    second = _environment()
    assert use_template_cache(second)
    assert second.get_template("page.html").render(title="kb") == "<h1>KB</h1>"
    assert second.compiled == []  # type: ignore[attr-defined]
    # A template whose text changed is compiled anew.
    TEMPLATES["base.html"], kept = "<h2>{% block body %}{% endblock %}</h2>", TEMPLATES["base.html"]
    try:
        third = _environment()
        use_template_cache(third)
        assert third.get_template("page.html").render(title="kb") == "<h2>KB</h2>"
        assert third.compiled == ["base.html"]  # type: ignore[attr-defined]
    finally:
        TEMPLATES["base.html"] = kept


def test_what_shapes_the_compiled_code_keys_the_cache() -> None:
    plain = environment_key(Environment())
    assert environment_key(Environment()) == plain
    assert environment_key(Environment(trim_blocks=True)) != plain
    assert environment_key(Environment(autoescape=True)) != plain
    assert environment_key(Environment(extensions=["jinja2.ext.i18n"])) != plain
    assert environment_key(Environment(finalize=str)) != plain
    with_filter = Environment()
    with_filter.filters["url"] = lambda value: value
    context_filter = Environment()
    context_filter.filters["url"] = pass_context(lambda context, value: value)
    assert len({plain, environment_key(with_filter), environment_key(context_filter)}) == 3


def test_a_filter_added_after_the_cache_was_given_keys_what_is_compiled_after(folder: Path) -> None:
    first = _environment()
    use_template_cache(first)
    first.get_template("page.html")
    second = _environment()
    use_template_cache(second)
    second.filters["upper"] = pass_context(lambda context, value: value.upper())
    assert second.get_template("page.html").render(title="kb") == "<h1>KB</h1>"
    assert sorted(second.compiled) == ["base.html", "page.html"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("setting", ["off", "0", ""])
def test_the_cache_can_be_turned_off(monkeypatch: pytest.MonkeyPatch, setting: str) -> None:
    monkeypatch.setenv(CACHE_ENV, setting)
    env = _environment()
    assert cache_folder() is None and not use_template_cache(env) and env.bytecode_cache is None


def test_the_default_folder_is_the_users_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_folder() == tmp_path / "kbgen" / "templates"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the XDG rule: absolute or unset
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_folder() == tmp_path / "home" / ".cache" / "kbgen" / "templates"


def test_a_folder_others_may_enter_or_that_cannot_be_made_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    os.chmod(shared, 0o777)
    monkeypatch.setenv(CACHE_ENV, str(shared))
    assert not use_template_cache(_environment())
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "a-file" / "templates"))
    assert not use_template_cache(_environment())
    target = tmp_path / "private"
    target.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(target)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "link"))
    assert not use_template_cache(_environment())  # a link may lead anywhere


def test_a_cache_file_cut_short_or_unwritable_is_passed_over(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _environment()
    use_template_cache(first)
    first.get_template("page.html")
    for cached in folder.iterdir():
        cached.write_bytes(cached.read_bytes()[:40])
    second = _environment()
    use_template_cache(second)
    assert second.get_template("page.html").render(title="kb") == "<h1>KB</h1>"
    assert sorted(second.compiled) == ["base.html", "page.html"]  # type: ignore[attr-defined]

    def full_disk(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(template_cache, "_write_new", full_disk)
    for cached in folder.iterdir():
        cached.unlink()
    third = _environment()
    use_template_cache(third)
    assert third.get_template("page.html").render(title="kb") == "<h1>KB</h1>"
    assert list(folder.iterdir()) == []


# Run in a process of its own, with the cache folder given: how many templates the build
# compiled (the page templates' environment is made when the generator is imported).
COUNTED_BUILD = """
import json, sys
import jinja2
compiled = []
compile = jinja2.Environment.compile
def counted(self, source, name=None, filename=None, *args):
    compiled.append(name)
    return compile(self, source, name, filename, *args)
jinja2.Environment.compile = counted
from generator.cli.main import main
code = main(["build", "--site-dir", sys.argv[1]])
print(json.dumps({"code": code, "compiled": compiled}))
"""


@pytest.mark.slow
def test_a_build_with_the_cache_cold_warm_or_off_writes_the_same_site(tmp_path: Path) -> None:
    project = make_project(tmp_path, git=False)
    cache = tmp_path / "cache"
    built = {
        run: run_script(
            COUNTED_BUILD,
            str(tmp_path / run),
            cwd=project,
            settings={CACHE_ENV: setting, "SOURCE_DATE_EPOCH": "1700000000"},
        )
        for run, setting in (("cold", str(cache)), ("warm", str(cache)), ("off", "off"))
    }
    cold, warm, off = built["cold"], built["warm"], built["off"]
    assert cold["code"] == warm["code"] == off["code"] == 0
    assert "_blocks.md.j2" in cold["compiled"] and "main.html" in cold["compiled"]
    # The page templates and the theme's (the search plugin's translations too) come from
    # the cache; only hand-written pages, which the macros plugin compiles from their
    # text, are compiled (Jinja caches no template made from a string).
    assert warm["compiled"] and set(warm["compiled"]) == {None}
    # A cold cache compiles each template once (another environment of the theme then
    # loads it); without a cache each environment compiles it again.
    assert set(off["compiled"]) == set(cold["compiled"]) and len(off["compiled"]) > len(cold["compiled"])
    sites = [tree_hashes(tmp_path / run) for run in ("cold", "warm", "off")]
    assert sites[0] == sites[1] == sites[2]


def test_every_environment_a_theme_makes_gets_the_cache_once_wrapped(folder: Path) -> None:
    from generator.util.template_cache import caching

    made: list[Environment] = []

    def get_env() -> Environment:
        made.append(_environment())
        return made[-1]

    wrapped = caching(get_env)
    assert caching(wrapped) is wrapped  # a theme configured again is not wrapped twice
    first, second = wrapped(), wrapped()
    assert first is made[0] and second is made[1]
    assert first.bytecode_cache is not None and second.bytecode_cache is not None
