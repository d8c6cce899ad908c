"""Shared helpers: run ``kbgen`` in-process and the explicit golden-update flag."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

# Templates the tests' builds compile are kept in a folder of the tests' own, never in
# the user's cache (set before the generator is imported: its page templates' environment
# takes the cache when it is made). The cache trusts a folder under the shared temporary
# folder only inside a private one; if someone else made this one first, the cache is
# refused and the tests compile their templates.
if "KBGEN_TEMPLATE_CACHE" not in os.environ:
    _PRIVATE = Path(tempfile.gettempdir()) / f"kbgen-tests-{os.getuid()}"
    with contextlib.suppress(FileExistsError):
        _PRIVATE.mkdir(mode=0o700)
    os.environ["KBGEN_TEMPLATE_CACHE"] = str(_PRIVATE / "templates")

from generator.cli.main import main

REPO_ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite tests/fixtures/check/*/expected.txt and tests/goldens/render/** "
        "from the current output (review the diff!)",
    )


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@dataclass
class CliResult:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)

    def diagnostic_lines(self) -> list[str]:
        """The diagnostics of a ``--format json`` run in the human one-line form."""
        return [
            f"{d['file']}:{d['line']}:{d['col']}: {d['severity']} {d['code']} {d['rule']}: {d['message']}"
            for d in self.json()["diagnostics"]
        ]


@pytest.fixture
def kbgen(capsys: pytest.CaptureFixture[str]):
    """Call ``generator.cli.main.main`` and capture its exit code and output (argparse exits count)."""

    def run(*argv: str) -> CliResult:
        capsys.readouterr()
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse usage errors, --help, --version
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run
