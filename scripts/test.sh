#!/usr/bin/env bash
# Sets up the machine and runs the whole test suite (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"
