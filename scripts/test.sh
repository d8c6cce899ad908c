#!/usr/bin/env bash
# Install everything the tests need on a fresh machine, then run lint, types and tests.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'

# Browser tests drive Debian's Chromium through Playwright (no browser download).
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi

ruff check generator tests benchmarks
ruff format --check generator tests benchmarks
mypy generator
# The layers, one way (contracts in pyproject.toml): an import that points up fails here.
lint-imports
# The suite runs on every core (pytest-xdist, a test file per worker so each module's
# fixtures are made once); `-n 0` after the script runs it in one process. The fast loop
# while editing: `bash scripts/test.sh -m "not slow and not browser"`.
start=$(date +%s)
status=0
python3 -m pytest -n auto --dist loadfile "$@" || status=$?
echo "scripts/test.sh: the suite took $(( $(date +%s) - start )) s of wall time (exit ${status})"
exit "${status}"
