#!/usr/bin/env bash
# Collection import speed and memory per format (issue 24's target: 100,000 rows in at most 10 s
# and 150 MB, release build). For each service, the largest real export in ../shared/interop is
# repeated to ROWS data rows (its header, sep line and line endings kept), imported into a fresh
# collection with `/usr/bin/time`, and the wall time and peak memory printed as a table.
#
#   scripts/interop-bench.sh                     # 100,000 rows, the default catalog
#   ROWS=20000 scripts/interop-bench.sh --catalog /path/catalog.sqlite
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-100000}
OUT=out/interop-bench
mkdir -p "$OUT"
export PATH=/opt/swift/usr/bin:$PATH
swift build -c release --product cardscan >/dev/null
BIN=.build/release/cardscan
python3 - "$ROWS" "$OUT" <<'PY'
import os, sys
rows, out = int(sys.argv[1]), sys.argv[2]
root = "../shared/interop"
largest = {}
for d in sorted(os.listdir(root)):
    p = os.path.join(root, d)
    if not os.path.isdir(p): continue
    for f in os.listdir(p):
        if not (f.endswith(".csv") or f.endswith(".txt")): continue
        path = os.path.join(p, f)
        key = "sorted" if "sorted" in f else d
        n = os.path.getsize(path)
        if key not in largest or n > largest[key][0]: largest[key] = (n, path)
for key, (_, path) in sorted(largest.items()):
    data = open(path, "rb").read()
    nl = b"\r\n" if b"\r\n" in data else b"\n"
    lines = [l for l in data.replace(b"\r\n", b"\n").split(b"\n") if l.strip()]
    head = 2 if lines[0].strip(b'"').lower().startswith(b"sep=") else 1
    if key == "arena": head = 1  # the "Deck" line
    body = lines[head:]
    rep = [body[i % len(body)] for i in range(rows)]
    with open(os.path.join(out, key + (".txt" if key == "arena" else ".csv")), "wb") as f:
        f.write(nl.join(lines[:head] + rep) + nl)
    print(key, path, file=sys.stderr)
PY
printf '| format | rows | wall s | peak MB |\n|---|---|---|---|\n'
for f in "$OUT"/*.csv "$OUT"/*.txt; do
  home=$(mktemp -d)
  /usr/bin/time -f '%e %M' -o "$home/time" env CARDSCAN_HOME="$home" "$BIN" collection import "$f" "$@" >/dev/null 2>"$home/err" || true
  read -r secs kb < "$home/time"
  printf '| %s | %s | %s | %d |\n' "$(basename "${f%.*}")" "$ROWS" "$secs" $((kb / 1024))
  rm -rf "$home"
done
