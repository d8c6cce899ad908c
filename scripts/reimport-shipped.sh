#!/usr/bin/env bash
# Import the shipped systems that are kbgen import's output again, from the documents in
# ../shared/reference/, over their folders (the tests hold them byte for byte to the
# importer's output). Review `git diff records/` before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
reference=../shared/reference
kbgen import "$reference/AAS-2026-10-03-dynamic-cheatsheet-02/memory.md" --system dynamic-cheatsheet --force || true
kbgen import "$reference/AAS-2026-10-02-instinctual-memory-02" --system instinctual-memory --force || true
# The set's manifest pins the digests its records give (kbgen set-manifest's output).
manifest=$(mktemp)
kbgen set-manifest records/instinctual-memory > "$manifest"
mv "$manifest" records/instinctual-memory/ARTIFACT.yaml
kbgen import "$reference/AAS-2026-09-26-oh-my-pi-01/result.md" --system oh-my-pi --as-run --force || true
# napkin: three runs, the latest (-05) current, the two before it kept as runs of it.
kbgen import "$reference/AAS-2026-09-27-napkin-05/result.md" --system napkin --force || true
kbgen import "$reference/AAS-2026-09-27-napkin-04/result.md" --system napkin --as-run --force || true
kbgen import "$reference/AAS-2026-09-27-napkin-01/result.md" --system napkin --as-run --force || true
