#!/usr/bin/env bash
# The publishing pipeline, one step per argument, run in the order given:
#   bash scripts/publish.sh install check build reproducible linkcheck
# CI (.ci/run) and the GitHub workflow (.github/workflows/publish.yml) both call this
# script, so what CI proves here is what the workflow runs.
#
#   install       python3 -m pip install -e .            (the README's first command, part one)
#   build         kbgen build --site-dir SITE            (the README's first command, part two;
#                 with KBGEN_SITE_URL set, --site-url KBGEN_SITE_URL: the sitemap's address)
#   test          bash scripts/test.sh                   (the README's second command)
#   fetch         kbgen sources fetch: pinned revisions into the cache
#   check         kbgen check; with KBGEN_VERIFY=1 also against the fetched sources (--verify)
#   reproducible  plain 'mkdocs build --strict' into a temporary folder: must equal SITE byte for byte
#                 (with KBGEN_SITE_URL set, MkDocs' own build with that site_url, as kbgen build had)
#   linkcheck     kbgen linkcheck SITE: links, anchors, evidence links, the manifest's digests
#   compress      a .gz twin (and .br, where the brotli package is installed) beside each text
#                 file of SITE, for a host that serves them; deterministic (gzip mtime 0). After
#                 reproducible, which compares SITE with a plain build that has no twins.
#
# Environment: KBGEN_SITE_DIR (site), KBGEN_SOURCES_CACHE (.kbgen/sources),
# KBGEN_FORMAT (human; 'github' writes pull-request annotations), KBGEN_VERIFY (0),
# KBGEN_SITE_URL (none: mkdocs.yml's site_url, which the shipped one leaves unset),
# SOURCE_DATE_EPOCH (default: the last commit's time, as kbgen build uses).
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_MKDOCS_2_WARNING=1

SITE_DIR="${KBGEN_SITE_DIR:-site}"
FORMAT="${KBGEN_FORMAT:-human}"
export KBGEN_SOURCES_CACHE="${KBGEN_SOURCES_CACHE:-.kbgen/sources}"
# One build date for kbgen build and plain mkdocs build alike: two builds of one commit match.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH="$(git log -1 --format=%ct 2>/dev/null || true)"
fi
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-0}"

reproducible() {
  local again status=0
  again="$(mktemp -d)"
  if [ -n "${KBGEN_SITE_URL:-}" ]; then
    # 'mkdocs build' takes no site URL but from mkdocs.yml: its own build, given the one
    # kbgen build was given.
    python3 -c 'import os, sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
build(load_config(strict=True, site_dir=sys.argv[1], site_url=os.environ["KBGEN_SITE_URL"]))' \
      "$again/site" || status=$?
  else
    mkdocs build --strict --quiet --site-dir "$again/site" || status=$?
  fi
  if [ "$status" -eq 0 ] && ! diff -r "$SITE_DIR" "$again/site" >/dev/null; then
    echo "plain 'mkdocs build' differs from $SITE_DIR:" >&2
    diff -rq "$SITE_DIR" "$again/site" >&2 || true
    status=1
  fi
  rm -rf "$again"
  [ "$status" -eq 0 ] && echo "plain 'mkdocs build' gives the same bytes as $SITE_DIR"
  return "$status"
}

run_step() {
  case "$1" in
    install) python3 -m pip install --quiet --disable-pip-version-check -e . ;;
    build) kbgen build --site-dir "$SITE_DIR" ${KBGEN_SITE_URL:+--site-url "$KBGEN_SITE_URL"} ;;
    test) bash scripts/test.sh ;;
    fetch) kbgen sources fetch --format "$FORMAT" ;;
    check)
      if [ "${KBGEN_VERIFY:-0}" = "1" ]; then
        kbgen check --verify --format "$FORMAT"
      else
        kbgen check --format "$FORMAT"
      fi
      ;;
    reproducible) reproducible ;;
    linkcheck) kbgen linkcheck "$SITE_DIR" ;;
    compress) python3 -m generator.site.precompress "$SITE_DIR" ;;
    *)
      echo "scripts/publish.sh: unknown step '$1' (install build test fetch check reproducible linkcheck compress)" >&2
      return 2
      ;;
  esac
}

if [ "$#" -eq 0 ]; then
  echo "usage: bash scripts/publish.sh STEP... (install build test fetch check reproducible linkcheck compress)" >&2
  exit 2
fi
for step in "$@"; do
  echo "== $step =="
  run_step "$step"
done
