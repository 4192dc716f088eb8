#!/usr/bin/env bash
# Sets up the machine and runs the whole test suite (what CI runs); extra arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh
swift build --build-tests
# The resident-memory checks read this process's RSS, which tests running beside them in the same
# process inflate: they run on their own, after the rest.
swift test --skip-build --skip MemoryTests "$@"
swift test --skip-build --filter MemoryTests "$@"
