#!/usr/bin/env python3
"""Score `cardscan scan --json` output against a labels.csv (../shared/photos or the copies
`scripts/robustness.sh --copies-only` writes, whose labels.csv prefixes each file with its variant).

    scripts/score-scans.py LABELS.csv SCAN.jsonl [--by kind|variant|folder] [--wrong] [--calibration] [--text-rule]

Per group it prints, for single-card images (photo_single, scan, crop_from_photo):
  name      the right card name (identified, or ambiguous between printings of one name)
  printing  the right set and collector number, of the labels that have a number
  identified, and how many of those are wrong (a confident wrong answer: the worst outcome)
and for photo_multi the labelled cards some result of the photo names (one result a card, so three copies
need three results; a result names a card when identified or when all its candidates share one name),
how many of those were identified, and the extra results: naming a card that no label of the photo left
over holds (a wrong card or one reported twice), counted only where every card of the photo is labelled.
A photo_multi label whose notes say the photo shows `N copies` of its card (`3 copies visible`; not
`one of 3 copies`, a row per copy) counts N cards.
A label flagged `unverified` in its notes does not count an identified card as wrong; a label with a set
and no number (a basic land printed in several arts) counts one of another set as wrong.
--calibration adds, per matcher method (evidence.method), how many identified cards were right
against the confidence the matcher stated for them: a calibrated matcher states the rate it has.
--text-rule, on a scan made with `scan --text` (every card's text read), counts for thresholds of
the text-alone rule (score, lead over the next name, words found) how many cards the text's best
name (evidence.text.text_name) would name, and how many of those wrongly: what Tuning.textMatching
was chosen from.
"""
import argparse
import collections
import csv
import json
import os
import re
import sys

SINGLE = ("photo_single", "scan", "crop_from_photo")


def copies(row):
    """The cards a photo_multi label stands for: `N copies` in its notes (one row for them all),
    else one (`one of N copies` is a row per copy)."""
    m = re.search(r"(?<!one of )(?<!One of )\b(\d+) copies", row.get("notes", ""))
    return int(m.group(1)) if m else 1


def norm(name):
    return (name or "").split(" // ")[0].strip().lower()


def result_name(r):
    """The card name a result gives: its identified card's, or the one name all its candidates share."""
    if r.get("card"):
        return r["card"]["name"]
    if r["status"] == "ambiguous" and r.get("candidates"):
        if len({norm(c["name"]) for c in r["candidates"]}) == 1:
            return r["candidates"][0]["name"]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("labels")
    ap.add_argument("scan")
    ap.add_argument("--by", choices=("kind", "variant", "folder"), default="kind")
    ap.add_argument("--wrong", action="store_true", help="list every wrong identified card")
    ap.add_argument("--calibration", action="store_true", help="right / identified per matcher method, with the stated confidence")
    ap.add_argument("--text-rule", action="store_true", help="named / wrong per text-alone threshold (scan --text output)")
    args = ap.parse_args()

    root = os.path.dirname(os.path.abspath(args.labels))
    labels = collections.defaultdict(list)
    with open(args.labels, newline="") as f:
        for row in csv.DictReader(f):
            labels[os.path.normpath(os.path.join(root, row["file"]))].append(row)

    results = collections.defaultdict(list)
    with open(args.scan) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)
            results[os.path.normpath(os.path.abspath(r["file"]))].append(r)

    st = collections.Counter()
    text_reads = []  # (score, lead, words found, the text's best name is the label's)
    calibration = collections.defaultdict(lambda: [0, 0, 0.0])  # method: identified, right, sum of confidences
    wrong = []
    missing = 0
    for path, rows in labels.items():
        rel = os.path.relpath(path, root)
        kind = rows[0]["kind"]
        group = {"kind": kind, "variant": rel.split(os.sep)[0], "folder": rel.split(os.sep)[0]}[args.by]
        rs = results.get(path)
        if rs is None:
            missing += 1
            continue
        if kind == "photo_multi":
            # Each result names at most one labelled card (three copies need three results); a result
            # whose name no label left over holds is extra: a wrong card, or a card reported twice.
            left = collections.Counter()
            for row in rows:
                if row["name"]:
                    left[norm(row["name"])] += copies(row)
            cards = sum(left.values())
            complete = all(row["name"] for row in rows)  # a photo whose cards are not all labelled has no extras
            for r in rs:
                name = result_name(r)
                if not name:
                    continue
                if left[norm(name)] > 0:
                    left[norm(name)] -= 1
                    st[group, "multi_name"] += 1
                    st[group, "multi_identified"] += r["status"] == "identified"
                elif complete:
                    st[group, "multi_extra"] += 1
                    st[group, "multi_extra_identified"] += r["status"] == "identified"
                    if args.wrong and r["status"] == "identified":
                        wrong.append(f"{rel}: {name} ({r['card']['set']} {r['card']['collector_number']}), "
                                     "not among the photo's labels left")
            st[group, "multi"] += cards
            continue
        if kind not in SINGLE:
            continue
        row, r = rows[0], rs[0]
        text = (r.get("evidence") or {}).get("text") or {}
        if text.get("text_name"):
            text_reads.append((text["score"], text["lead"], len(text["words"]), norm(text["text_name"]) == norm(row["name"])))
        st[group, "n"] += 1
        card = r.get("card")
        name = result_name(r)
        st[group, "name"] += bool(name) and norm(name) == norm(row["name"])
        if row["collector_number"]:
            st[group, "numbered"] += 1
            st[group, "printing"] += bool(card) and card["set"] == row["set"] and card["collector_number"] == row["collector_number"]
        if r["status"] == "identified":
            st[group, "identified"] += 1
            # A label with a set but no number (a basic land of several arts) still names the set.
            right = norm(card["name"]) == norm(row["name"]) and (
                (not row["collector_number"] and (not row["set"] or card["set"] == row["set"]))
                or (card["set"], card["collector_number"]) == (row["set"], row["collector_number"])
                or "unverified" in row.get("notes", ""))
            method = (r.get("evidence") or {}).get("method", "?")
            calibration[method][0] += 1
            calibration[method][1] += right
            calibration[method][2] += r.get("confidence", 0)
            if not right:
                st[group, "wrong"] += 1
                wrong.append(f"{rel}: {card['name']} ({card['set']} {card['collector_number']}), label "
                             f"{row['name']} ({row['set']} {row['collector_number']})")

    groups = sorted({g for g, _ in st})
    total = collections.Counter()
    for g in groups:
        parts = []
        if st[g, "n"]:
            parts.append(f"name {st[g, 'name']}/{st[g, 'n']}, printing {st[g, 'printing']}/{st[g, 'numbered']}, "
                         f"identified {st[g, 'identified']} (wrong {st[g, 'wrong']})")
        if st[g, "multi"]:
            parts.append(f"cards in several-card photos named {st[g, 'multi_name']}/{st[g, 'multi']} "
                         f"(identified {st[g, 'multi_identified']}), extra results naming a card "
                         f"{st[g, 'multi_extra']} (identified {st[g, 'multi_extra_identified']})")
        print(f"{g}: " + "; ".join(parts))
        for k in ("n", "name", "numbered", "printing", "identified", "wrong", "multi", "multi_name",
                  "multi_identified", "multi_extra", "multi_extra_identified"):
            total[k] += st[g, k]
    if len(groups) > 1:
        print(f"all: name {total['name']}/{total['n']}, printing {total['printing']}/{total['numbered']}, "
              f"identified {total['identified']} (wrong {total['wrong']})"
              + (f"; several-card photos {total['multi_name']}/{total['multi']} (identified "
                 f"{total['multi_identified']}, extra {total['multi_extra']}, extra identified "
                 f"{total['multi_extra_identified']})" if total["multi"] else ""))
    if args.calibration:
        print("method: identified, right (measured rate), mean stated confidence")
        for method, (n, ok, conf) in sorted(calibration.items(), key=lambda kv: -kv[1][0]):
            print(f"  {method}: {n}, {ok} ({ok / n:.3f}), {conf / n:.3f}")
    if args.text_rule:
        right = sum(t[3] for t in text_reads)
        print(f"text reads with a best name: {len(text_reads)}, right {right}")
        print("score lead words: named, wrong")
        for score in (0.5, 0.55, 0.6):
            for lead in (0.1, 0.15, 0.2, 0.25):
                for words in (3, 5, 8):
                    named = [t for t in text_reads if t[0] >= score and t[1] >= lead and t[2] >= words]
                    print(f"  {score} {lead} {words}: {len(named)}, {sum(1 for t in named if not t[3])}")
    if missing:
        print(f"({missing} labelled files have no result in {args.scan})", file=sys.stderr)
    if args.wrong or wrong:
        for w in wrong:
            print("WRONG " + w)


if __name__ == "__main__":
    main()
