#!/usr/bin/env python3
"""Compares two `cardscan scan --json` runs over the same photos: what was read and matched.

    scripts/compare-scans.py before.jsonl after.jsonl [--times]

Each card result is keyed by its file and its place among that file's results (the main card is
0). Per key it compares the status, the card (id, name, set, number) and the extracted fields;
the quad and the timings are left out (a reader change may move a corner by a pixel without
changing what is read). Prints each difference, a summary, and exits 1 when anything differs, so a
refactor that must not change readings can be checked in one command. `--times` also prints the
median total time per photo of each run and their ratio (compare runs made on the same machine
at the same time only).
"""
import json
import statistics
import sys


def load(path):
    results, totals = {}, {}
    seen = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"compare-scans: {path}:{number}: not JSON ({e.msg})")
            file = record.get("file", "?")
            index = seen.get(file, 0)
            seen[file] = index + 1
            results[(file, index)] = record
            timings = record.get("timings_ms") or {}
            totals[file] = totals.get(file, 0.0) + float(timings.get("total", 0.0))
    return results, totals


def essence(record):
    card = record.get("card") or {}
    return {
        "status": record.get("status"),
        "card": {k: card.get(k) for k in ("id", "name", "set", "collector_number")} if card else None,
        "extracted": record.get("extracted"),
        "error": record.get("error"),
    }


def describe(e):
    if e is None:
        return "(no result)"
    card = e["card"]
    name = f"{card['name']} {card['set']} {card['collector_number']}" if card else "-"
    x = e["extracted"] or {}
    fields = " ".join(f"{k}={v}" for k, v in sorted(x.items()) if v is not None)
    return f"{e['status']} {name} [{fields}]" + (f" error={e['error']}" if e.get("error") else "")


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    (before, before_totals), (after, after_totals) = load(args[0]), load(args[1])
    differences = 0
    for key in sorted(set(before) | set(after)):
        a = essence(before[key]) if key in before else None
        b = essence(after[key]) if key in after else None
        if a != b:
            differences += 1
            print(f"{key[0]} #{key[1]}\n  before: {describe(a)}\n  after:  {describe(b)}")
    print(f"{len(before)} results before, {len(after)} after, {differences} differ")
    if "--times" in argv:
        common = sorted(set(before_totals) & set(after_totals))
        if common:
            m0 = statistics.median(before_totals[f] for f in common)
            m1 = statistics.median(after_totals[f] for f in common)
            print(f"median total per photo: before {m0:.0f} ms, after {m1:.0f} ms (after/before {m1 / max(m0, 1e-9):.3f})")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
