#!/usr/bin/env bash
# Runs the benchmark: checks dependencies (scripts/setup.sh), builds cardscan-bench in release mode,
# then benchmarks ../shared/photos and Fixtures/synthetic (when present).
# The photos run matches against a catalog built once from both shared bulk files (../shared/carddata);
# the fixtures run matches against the sample catalog (Fixtures/catalog/sample-cards.json + sample-sets.json).
# Markdown reports go to stdout and out/bench-*.md, JSON to out/bench-*.json (out/ is gitignored).
# Extra arguments are passed to every cardscan-bench run, e.g. `scripts/bench.sh --limit 10 --no-references`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh
swift build -c release --scratch-path .build-bench --product cardscan-bench
bench="$(swift build -c release --scratch-path .build-bench --show-bin-path)/cardscan-bench"
mkdir -p out

run() { # name folder [args...]
  local name="$1" folder="$2"; shift 2
  echo "== cardscan-bench $folder ==" >&2
  local start=$SECONDS
  "$bench" "$folder" --json "out/bench-$name.json" "$@" | tee "out/bench-$name.md"
  echo "== $folder: $((SECONDS - start)) s, out/bench-$name.json ==" >&2
}

if [ -d ../shared/photos ]; then
  run photos ../shared/photos "$@"
else
  echo "bench: ../shared/photos not found, skipped" >&2
fi
if [ -f Fixtures/synthetic/truth.csv ]; then
  sample=(--catalog-json Fixtures/catalog/sample-cards.json)
  [ -f Fixtures/catalog/sample-sets.json ] && sample+=(--catalog-json Fixtures/catalog/sample-sets.json)
  run synthetic Fixtures/synthetic --no-catalog "${sample[@]}" "$@"  # the catalog import is measured once, above
else
  echo "bench: Fixtures/synthetic/truth.csv not found, skipped" >&2
fi
