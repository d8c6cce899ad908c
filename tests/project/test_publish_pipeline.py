"""The CI pipeline: the GitHub workflow, the one script it shares with .ci/run, pre-commit."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO_ROOT

WORKFLOW = REPO_ROOT / ".github" / "workflows" / "publish.yml"
SCRIPT = REPO_ROOT / "scripts" / "publish.sh"
PINNED_ACTION = re.compile(r"[\w.-]+/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+")


def workflow() -> dict[Any, Any]:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def steps(job: str) -> list[dict[str, Any]]:
    return workflow()["jobs"][job]["steps"]


def uses_lines() -> list[str]:
    return [
        line.split("uses:", 1)[1].strip()
        for line in WORKFLOW.read_text("utf-8").splitlines()
        if "uses:" in line
    ]


def script_steps() -> set[str]:
    """The step names scripts/publish.sh knows (its case labels)."""
    return set(re.findall(r"^    ([a-z-]+)\)", SCRIPT.read_text(encoding="utf-8"), re.MULTILINE))


def _actionlint() -> str:
    """The actionlint the test extras installed beside this Python (or on PATH)."""
    beside = Path(sys.executable).parent / "actionlint"
    found = str(beside) if beside.is_file() else shutil.which("actionlint")
    assert found, "actionlint is missing: pip install -e '.[test]'"
    return found


def test_workflow_passes_actionlint() -> None:
    result = subprocess.run([_actionlint(), str(WORKFLOW)], capture_output=True, text=True, cwd=REPO_ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_catches_a_broken_workflow(tmp_path: Path) -> None:
    """The lint is real: an undefined context property is reported, located."""
    broken = tmp_path / "broken.yml"
    broken.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ github.no_such_property }}\n",
        encoding="utf-8",
    )
    result = subprocess.run([_actionlint(), str(broken)], capture_output=True, text=True)
    assert result.returncode == 1
    assert "broken.yml:6:" in result.stdout and "no_such_property" in result.stdout


def test_every_action_is_pinned_to_a_commit() -> None:
    used = uses_lines()
    assert used and all(PINNED_ACTION.fullmatch(line) for line in used), used


def test_workflow_runs_on_pull_requests_and_pushes_to_main() -> None:
    triggers = workflow()[True]  # YAML 1.1 reads the key 'on' as True
    assert "pull_request" in triggers and triggers["push"]["branches"] == ["main"]


def test_every_run_step_calls_the_shared_script() -> None:
    runs = [step["run"] for step in steps("build") if "run" in step]
    named = [name for run in runs for name in run.removeprefix("bash scripts/publish.sh ").split()]
    assert all(run.startswith("bash scripts/publish.sh ") for run in runs), runs
    assert named == ["install", "fetch", "check", "build", "reproducible", "linkcheck", "compress"]
    assert set(named) <= script_steps()


def test_pull_requests_get_annotations_and_verified_evidence() -> None:
    env = workflow()["env"]
    assert env["KBGEN_FORMAT"] == "github" and env["KBGEN_VERIFY"] == "1"
    cache = next(step for step in steps("build") if "actions/cache@" in step.get("uses", ""))
    assert cache["with"]["path"] == env["KBGEN_SOURCES_CACHE"]


def test_deployment_uses_the_pages_artifact_actions_with_their_permissions() -> None:
    deploy = workflow()["jobs"]["deploy"]
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages" and deploy["needs"] == "build"
    assert deploy["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    assert "refs/heads/main" in deploy["if"]
    used = " ".join(uses_lines())
    assert "actions/upload-pages-artifact@" in used and "actions/deploy-pages@" in used
    assert "gh-deploy" not in WORKFLOW.read_text(encoding="utf-8")
    assert workflow()["permissions"] == {"contents": "read"}


def test_the_published_build_is_given_the_pages_address() -> None:
    """Without a site URL the sitemap lists no page: the workflow gives the build its GitHub
    Pages address (a project site: owner.github.io/repository/), which the script passes
    to kbgen build as --site-url."""
    env = workflow()["env"]
    assert env["KBGEN_SITE_URL"] == (
        "https://${{ github.repository_owner }}.github.io/${{ github.event.repository.name }}/"
    )
    build = next(step for step in steps("build") if "build" in step.get("run", "").split())
    assert "env" not in build or "KBGEN_SITE_URL" not in build["env"]  # the workflow's own, for every step
    script = SCRIPT.read_text(encoding="utf-8")
    assert '${KBGEN_SITE_URL:+--site-url "$KBGEN_SITE_URL"}' in script
    assert 'site_url=os.environ["KBGEN_SITE_URL"]' in script  # the plain build compared gets it too


@pytest.mark.slow
def test_script_builds_a_sitemap_under_the_site_url_reproducibly(tmp_path: Path) -> None:
    url = "https://example.github.io/analysis-kb/"
    env = {
        **os.environ,
        "KBGEN_SITE_DIR": str(tmp_path / "site"),
        "KBGEN_SITE_URL": url,
        "PYTHONPATH": str(REPO_ROOT),
    }
    result = subprocess.run(
        ["bash", str(SCRIPT), "build", "reproducible"], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "gives the same bytes" in result.stdout
    sitemap = (tmp_path / "site" / "sitemap.xml").read_text(encoding="utf-8")
    locations = re.findall(r"<loc>([^<]*)</loc>", sitemap)
    assert f"{url}systems/oh-my-pi/result/" in locations
    assert len(locations) > 20 and all(location.startswith(url) for location in locations)


def test_ci_run_runs_the_readmes_two_commands_through_the_script() -> None:
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash scripts/publish.sh install build linkcheck test" in ci
    script = SCRIPT.read_text(encoding="utf-8")
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert "python3 -m pip install -e . && kbgen build" in readme and "bash scripts/test.sh" in readme
    assert "install) python3 -m pip install --quiet --disable-pip-version-check -e . ;;" in script
    assert (
        'build) kbgen build --site-dir "$SITE_DIR" ${KBGEN_SITE_URL:+--site-url "$KBGEN_SITE_URL"} ;;'
        in script
    )
    assert "test) bash scripts/test.sh ;;" in script


def test_unknown_step_is_a_usage_error() -> None:
    result = subprocess.run(["bash", str(SCRIPT), "deploy-everything"], capture_output=True, text=True)
    assert result.returncode == 2 and "unknown step 'deploy-everything'" in result.stderr


@pytest.mark.slow
def test_script_builds_reproducibly_and_checks_links(tmp_path: Path) -> None:
    env = {**os.environ, "KBGEN_SITE_DIR": str(tmp_path / "site"), "PYTHONPATH": str(REPO_ROOT)}
    result = subprocess.run(
        ["bash", str(SCRIPT), "check", "build", "reproducible", "linkcheck"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "gives the same bytes" in result.stdout
    assert "0 broken links, 0 manifest problems" in result.stderr


@pytest.mark.skipif(shutil.which("pre-commit") is None, reason="pre-commit not installed")
@pytest.mark.parametrize(
    ("command", "path"),
    [("validate-manifest", ".pre-commit-hooks.yaml"), ("validate-config", ".pre-commit-config.yaml")],
)
def test_pre_commit_files_are_valid(command: str, path: str) -> None:
    result = subprocess.run(["pre-commit", command, path], capture_output=True, text=True, cwd=REPO_ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pre_commit_hook_checks_staged_record_files() -> None:
    hooks = yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "kbgen-check")
    assert hook["entry"] == "kbgen check" and hook["pass_filenames"] is False
    assert re.search(hook["files"], "records/oh-my-pi/routes.yaml")
    assert re.search(hook["files"], "records/decapod/prose/notes.md")
    assert not re.search(hook["files"], "generator/cli.py")
