#!/usr/bin/env bash
# Sets up the machine and runs the whole test suite (what CI runs); extra arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh
# Style first (seconds): swift-format's rules from .swift-format.
scripts/lint.sh
swift build --build-tests
# The resident-memory checks read this process's RSS, which tests running beside them in the same
# process inflate (a catalog import, a debug-build read of a 12 MP photo): they run on their own,
# after the rest, one at a time.
memory='MemoryTests|TextRecognizerTests/noLeak'
swift test --skip-build --skip "$memory" "$@"
swift test --skip-build --no-parallel --filter "$memory" "$@"
# The pages of `cardscan serve` in a real headless Chromium (screenshots of failures in out/browser-failures/).
python3 Tests/Browser/test_pages.py .build/debug/cardscan
