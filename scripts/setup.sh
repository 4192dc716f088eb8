#!/usr/bin/env bash
# Installs what cardscan needs to build and run, if it is missing:
#   Debian packages libtesseract-dev libleptonica-dev libpng-dev libjpeg-dev tesseract-ocr-eng pkg-config zlib1g-dev
#   (and, for the benchmark's reference runs, tesseract-ocr (CLI) and libjpeg-turbo-progs (djpeg));
#   for the browser tests of `cardscan serve`: Debian's chromium and chromium-driver, and Selenium
#   from PyPI (pinned: 4.52 needs a certifi newer than the index here offers).
# Safe to run again: it only calls apt-get when a package is absent. Needs root or sudo for apt.
set -euo pipefail

packages=(libtesseract-dev libleptonica-dev libpng-dev libjpeg-dev tesseract-ocr-eng tesseract-ocr pkg-config zlib1g-dev libjpeg-turbo-progs
          chromium chromium-driver python3-pip)
selenium_version=4.51.0
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if ! python3 -c "import selenium, sys; sys.exit(selenium.__version__ != '$selenium_version')" 2>/dev/null; then
  echo "setup: installing selenium $selenium_version (pip)" >&2
  python3 -m pip install -q "selenium==$selenium_version" >&2 2>/dev/null \
    || python3 -m pip install -q --break-system-packages "selenium==$selenium_version" >&2
fi

command -v swift >/dev/null || [ -x /opt/swift/usr/bin/swift ] || {
  echo "setup: the Swift toolchain (6.0 or later) is not on PATH" >&2; exit 1; }
echo "setup: dependencies present" >&2
