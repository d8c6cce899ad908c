#!/usr/bin/env bash
# Install everything the tests need on a fresh machine, then run lint, types and tests.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'
# actionlint (tests/test_publish_pipeline.py) fetches its binary while installing: offline
# machines go on without it and the workflow test says it was skipped.
if ! command -v actionlint >/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check -e '.[workflow]' >/dev/null 2>&1 ||
    echo "actionlint could not be installed (no network?); the workflow's actionlint test is skipped" >&2
fi

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
python3 -m pytest "$@"
