#!/usr/bin/env bash
# Sets up the machine, builds cardscan (release) and identifies the built-in sample photos
# (Fixtures/synthetic) against the built-in sample catalog. The main job, on sample data.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh
swift build -c release --product cardscan >&2
bin="$(swift build -c release --show-bin-path)/cardscan"
"$bin" identify Fixtures/synthetic/broodhunter_wurm_photo.jpg || true
"$bin" scan Fixtures/synthetic "$@"
