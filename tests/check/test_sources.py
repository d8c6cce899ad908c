"""kbgen sources fetch and kbgen check --verify, against temporary local git repositories.

Records keep a real-looking ``https`` location; git's own URL rewriting
(``url.<base>.insteadOf``) points it at a local repository, so nothing touches the network.
"""

from __future__ import annotations

import http.server
import threading
from pathlib import Path

import git
import pytest

from tests.conftest import CliResult

LOCATION = "https://git.example.org/tiny"
RECORDS = "records/tiny/records.yaml"
# Positions in TEMPLATE: source id 4:7, location 7:13, revision 8:13, evidence item 12:5.
TEMPLATE = """\
run:
  system: Tiny
sources:
- id: SRC-1
  source_kind: Git
  identity: tiny test repository
  location: {location}
  revision: {revision}
components:
- id: CMP-1
  evidence:
  - {evidence}
"""


def commit_files(repo: git.Repo, files: dict[str, str], message: str) -> str:
    folder = Path(repo.working_dir)
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    repo.index.add(list(files))
    actor = git.Actor("Test", "test@example.org")
    return repo.index.commit(message, author=actor, committer=actor).hexsha


@pytest.fixture
def upstream(tmp_path: Path) -> tuple[Path, list[str]]:
    """A repository with three commits; the file app.py grows by one line in each."""
    folder = tmp_path / "upstream"
    repo = git.Repo.init(folder)
    shas = [commit_files(repo, {"app.py": "x = 1\n" * (n + 1)}, f"commit {n}") for n in range(3)]
    repo.close()
    return folder, shas


@pytest.fixture
def rewrite(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Only this test's git configuration: no user or system files."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-global-gitconfig"))
    monkeypatch.delenv("GIT_CONFIG_COUNT", raising=False)


def point_location_at(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """url.<target>.insteadOf=<LOCATION>, set through git's GIT_CONFIG_COUNT variables."""
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", f"url.{target.as_uri()}.insteadOf")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", LOCATION)


def write_records(
    root: Path, revision: str, location: str = LOCATION, evidence: str = "SRC-1 app.py:1"
) -> None:
    folder = root / "records" / "tiny"
    folder.mkdir(parents=True, exist_ok=True)
    text = TEMPLATE.format(location=location, revision=revision, evidence=evidence)
    (folder / "records.yaml").write_text(text, encoding="utf-8")


def located(result: CliResult) -> set[tuple[str, str, int, int]]:
    return {(d["code"], d["file"], d["line"], d["col"]) for d in result.json()["diagnostics"]}


@pytest.mark.usefixtures("rewrite")
def test_fetch_gets_the_pinned_older_commit(kbgen, monkeypatch, tmp_path, upstream) -> None:
    folder, shas = upstream
    point_location_at(monkeypatch, folder)
    write_records(tmp_path, shas[1], evidence="SRC-1 app.py:2")
    fetched = kbgen("sources", "fetch", "--format", "json")
    assert fetched.code == 0, fetched.err
    assert located(fetched) == set()
    assert "1 fetched" in fetched.err
    cached = git.Repo(tmp_path / ".kbgen" / "sources" / "tiny" / "SRC-1")
    assert cached.bare and cached.commit(shas[1]).hexsha == shas[1]
    assert cached.git.rev_parse("refs/kb/pinned") == shas[1]
    assert (Path(cached.git_dir) / "shallow").is_file()  # the host serves one commit: depth 1
    cached.close()
    verified = kbgen("check", "--verify", "--format", "json")
    assert verified.code == 0 and located(verified) == set()


@pytest.mark.usefixtures("rewrite")
def test_rewrite_from_a_git_config_file(kbgen, monkeypatch, tmp_path, upstream) -> None:
    folder, shas = upstream
    config = tmp_path / "no-global-gitconfig"
    config.write_text(f'[url "{folder.as_uri()}"]\n\tinsteadOf = {LOCATION}\n', encoding="utf-8")
    write_records(tmp_path, shas[0])
    result = kbgen("sources", "fetch", "--cache", "cache", "--format", "json")
    assert result.code == 0 and located(result) == set()
    assert (tmp_path / "cache" / "tiny" / "SRC-1").is_dir()


@pytest.mark.usefixtures("rewrite")
def test_cache_is_reused_without_the_network(kbgen, monkeypatch, tmp_path, upstream) -> None:
    folder, shas = upstream
    point_location_at(monkeypatch, folder)
    write_records(tmp_path, shas[2])
    assert kbgen("sources", "fetch").code == 0
    monkeypatch.delenv("GIT_CONFIG_COUNT")  # the location now points at an unreachable host
    again = kbgen("sources", "fetch", "--strict", "--format", "json")
    assert again.code == 0 and located(again) == set()
    assert "0 fetched, 1 already cached" in again.err


@pytest.mark.usefixtures("rewrite")
def test_abbreviated_revision_is_fetched_with_the_branches(kbgen, monkeypatch, tmp_path, upstream) -> None:
    folder, shas = upstream
    point_location_at(monkeypatch, folder)
    write_records(tmp_path, shas[0][:10])
    assert kbgen("sources", "fetch").code == 0
    verified = kbgen("check", "--verify", "--format", "json")
    assert verified.code == 0 and located(verified) == set()


@pytest.mark.usefixtures("rewrite")
def test_unknown_revision_is_reported_at_the_revision(kbgen, monkeypatch, tmp_path, upstream) -> None:
    folder, _ = upstream
    point_location_at(monkeypatch, folder)
    write_records(tmp_path, "0123456789abcdef0123456789abcdef01234567")
    result = kbgen("sources", "fetch", "--format", "json")
    assert result.code == 0  # a warning
    assert located(result) == {("KB507", RECORDS, 8, 13)}
    assert kbgen("sources", "fetch", "--strict").code == 1


@pytest.mark.usefixtures("rewrite")
def test_unreachable_location_is_reported_at_the_location(kbgen, monkeypatch, tmp_path, upstream) -> None:
    _, shas = upstream
    point_location_at(monkeypatch, tmp_path / "nowhere")
    write_records(tmp_path, shas[0])
    result = kbgen("sources", "fetch", "--format", "json")
    assert located(result) == {("KB506", RECORDS, 7, 13)}
    (diagnostic,) = result.json()["diagnostics"]
    assert diagnostic["severity"] == "warning" and "nowhere" in diagnostic["message"]
    assert kbgen("sources", "fetch", "--strict").code == 1


@pytest.mark.usefixtures("rewrite")
def test_source_without_location_is_reported_once(kbgen, tmp_path, upstream) -> None:
    _, shas = upstream
    write_records(tmp_path, shas[0])
    path = tmp_path / "records" / "tiny" / "records.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(f"  location: {LOCATION}\n", ""), "utf-8")
    result = kbgen("sources", "fetch", "--format", "json")
    assert located(result) == {("KB506", RECORDS, 4, 7)}


@pytest.mark.usefixtures("rewrite")
@pytest.mark.parametrize("revision", ["main", "HEAD~1", "--upload-pack=touch pwned"])
def test_moving_or_option_like_revision_is_refused_before_git_sees_it(kbgen, tmp_path, revision) -> None:
    write_records(tmp_path, revision)
    result = kbgen("sources", "fetch", "--format", "json")
    assert result.code == 1 and located(result) == {("KB505", RECORDS, 8, 13)}
    assert not (tmp_path / "pwned").exists() and not (tmp_path / ".kbgen").exists()


@pytest.mark.usefixtures("rewrite")
def test_verify_finds_a_missing_file_in_the_fetched_commit(kbgen, monkeypatch, tmp_path, upstream) -> None:
    folder, shas = upstream
    point_location_at(monkeypatch, folder)
    write_records(tmp_path, shas[0], evidence="SRC-1 app.py:2")  # one line at the first commit
    assert kbgen("sources", "fetch").code == 0
    result = kbgen("check", "--verify", "--format", "json")
    assert result.code == 1 and located(result) == {("KB503", RECORDS, 12, 5)}


@pytest.mark.usefixtures("rewrite")
def test_verify_without_a_fetch_says_how_to_fetch(kbgen, tmp_path, upstream) -> None:
    _, shas = upstream
    write_records(tmp_path, shas[0])
    result = kbgen("check", "--verify", "--cache", "cache", "--format", "json")
    assert located(result) == {("KB501", RECORDS, 4, 7)}
    assert "kbgen sources fetch --cache cache" in result.json()["diagnostics"][0]["hint"]


def test_sources_and_verify_together_are_a_usage_error(kbgen, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "records").mkdir()
    assert kbgen("check", "--verify", "--sources", "x").code == 2


class _AskForPassword(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="private"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:  # quiet test output
        pass


@pytest.mark.usefixtures("rewrite")
def test_location_asking_for_a_password_gets_none(kbgen, tmp_path, upstream) -> None:
    _, shas = upstream
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _AskForPassword)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        write_records(tmp_path, shas[0], location=f"http://127.0.0.1:{server.server_port}/private")
        # A loopback host is fetched only when the maintainer allows it (KB508 otherwise).
        result = kbgen("sources", "fetch", "--format", "json", "--allow-host", "127.0.0.1")
    finally:
        server.shutdown()
        server.server_close()
    assert located(result) == {("KB506", RECORDS, 7, 13)}
    assert "terminal prompts disabled" in result.json()["diagnostics"][0]["message"]


class _Recording(http.server.BaseHTTPRequestHandler):
    """Counts every request; answers a redirect to ``redirect_to`` when that is set."""

    requests: list[str] = []
    redirect_to: str | None = None

    def do_GET(self) -> None:
        type(self).requests.append(self.path)
        if type(self).redirect_to:
            self.send_response(302)
            self.send_header("Location", type(self).redirect_to + self.path)
        else:
            self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def _serve(handler: type[http.server.BaseHTTPRequestHandler]) -> http.server.ThreadingHTTPServer:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.mark.usefixtures("rewrite")
@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1:{port}",
        "2130706433:{port}",
        "0x7f.1:{port}",
        "0177.0.0.1:{port}",
        "127.1:{port}",
        "localhost:{port}",
        "localhost.:{port}",
        "[::ffff:127.0.0.1]:{port}",
    ],
)
def test_a_loopback_location_is_refused_and_never_contacted(kbgen, tmp_path, upstream, host) -> None:
    _, shas = upstream
    handler = type("Handler", (_Recording,), {"requests": [], "redirect_to": None})
    server = _serve(handler)
    try:
        location = f"http://{host.format(port=server.server_port)}/latest/meta-data/iam"
        write_records(tmp_path, shas[0], location=location)
        result = kbgen("sources", "fetch", "--format", "json")
    finally:
        server.shutdown()
        server.server_close()
    assert handler.requests == []
    assert result.code == 1
    assert located(result) == {("KB508", RECORDS, 7, 13)}


@pytest.mark.usefixtures("rewrite")
@pytest.mark.parametrize(
    "location",
    [
        "http://169.254.169.254/latest/meta-data/",
        "http://10.1.2.3/r.git",
        "http://[fd00::1]/r",
        "http://0.0.0.0/r",
    ],
)
def test_private_link_local_and_unspecified_hosts_are_refused(kbgen, tmp_path, upstream, location) -> None:
    _, shas = upstream
    write_records(tmp_path, shas[0], location=location)
    result = kbgen("sources", "fetch", "--format", "json")
    assert result.code == 1
    assert located(result) == {("KB508", RECORDS, 7, 13)}


@pytest.mark.usefixtures("rewrite")
def test_an_allowed_host_is_not_followed_through_a_redirect(kbgen, tmp_path, upstream, monkeypatch) -> None:
    """An allowed (or public) host cannot send git on to another host: no redirects."""
    _, shas = upstream
    landing = type("Landing", (_Recording,), {"requests": [], "redirect_to": None})
    target = _serve(landing)
    redirector = type("Redirector", (_Recording,), {"requests": [], "redirect_to": None})
    redirector.redirect_to = f"http://127.0.0.1:{target.server_port}"
    front = _serve(redirector)
    try:
        write_records(tmp_path, shas[0], location=f"http://127.0.0.1:{front.server_port}/repo")
        result = kbgen("sources", "fetch", "--format", "json", "--allow-host", "127.0.0.1")
    finally:
        for server in (front, target):
            server.shutdown()
            server.server_close()
    assert redirector.requests  # git asked the allowed host
    assert landing.requests == []  # the redirect was not followed
    assert {code for code, *_ in located(result)} == {"KB506"}
