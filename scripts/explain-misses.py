#!/usr/bin/env python3
"""Why each labelled single-card image missed its name or printing: what was read, and what the
catalog says the card could be told apart by. For issue notes that must show, per miss, what
evidence was on the card, what was read, and why it was not enough.

    scripts/explain-misses.py LABELS.csv SCAN.jsonl --catalog CATALOG.sqlite [--variant V] [--summary]

LABELS.csv and SCAN.jsonl as for `scripts/score-scans.py` (`../shared/photos/labels.csv`, or the
copies' `out/robustness/labels.csv` with `--variant` to take one variant). Per miss it prints the
result, what the reader read (title, collector fields, the text's best name with its score, lead
and words) and a cause, one of:

  not in catalog          the label's name is not in the catalog at all
  no printed name         the card is printed in a language (as read, or as the label's notes say:
                          `non-English (es)`, `Spanish printing`) the catalog has no name or text for
  read nothing legible    no title word of four letters, no collector number, at most one text word
  text below the rule     the text's best name is the label's, short of the text rule (score, lead, words)
  named another card      the result names a card that is not the label's
  twins                   printing miss: the label's printing shares every feature the reader reads
                          beside the collector line (name, text, flavor text, artist, frame, border)
                          with other printings; only the set symbol, the collector line or the art
                          tells them apart (their number is given)
  printing open           printing miss with the name right, some feature read would tell it apart
  other                   none of these

`--summary` prints only the count per cause. The catalog is a `cardscan` catalog (SQLite, the
`printing` table) opened read-only.
"""
import argparse
import collections
import csv
import importlib.util
import json
import os
import re
import sqlite3
import sys

_spec = importlib.util.spec_from_file_location("score_scans", os.path.join(os.path.dirname(os.path.abspath(__file__)), "score-scans.py"))
score_scans = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(score_scans)
norm, result_name, SINGLE = score_scans.norm, score_scans.result_name, score_scans.SINGLE

# What the reader can see of a printing beside its collector line and set symbol.
FEATURES = ("oracle_text", "flavor_text", "artist", "frame", "border_color", "type_line")


def printings(db, name):
    rows = db.execute(
        "SELECT set_code, collector_number, lang, " + ", ".join(FEATURES) + ", paper FROM printing "
        "WHERE name = ? OR name LIKE ? ", (name, name + " // %")).fetchall()
    keys = ("set", "number", "lang") + FEATURES + ("paper",)
    return [dict(zip(keys, r)) for r in rows]


def foreign_names(db, name, language):
    """The names in `language` the catalog's foreign text (MTGJSON `foreignData`) gives printings of `name`."""
    rows = db.execute("SELECT DISTINCT f.name FROM foreign_text f JOIN printing p ON p.id = f.printing_id "
                      "WHERE (p.name = ? OR p.name LIKE ?) AND f.lang = ?", (name, name + " // %", language)).fetchall()
    return [r[0] for r in rows if r[0]]


LANGUAGES = {"spanish": "es", "japanese": "ja", "french": "fr", "german": "de", "italian": "it", "portuguese": "pt",
             "russian": "ru", "korean": "ko", "chinese": "zhs"}


def printed_language(label, read):
    """The language the card is printed in: as read, else as the label's notes say, else English."""
    if read.get("language"):
        return read["language"]
    notes = label.get("notes") or ""
    found = re.search(r"non-English \((\w+)\)", notes)
    if found:
        return found.group(1)
    found = re.search(r"(\w+) printing", notes)
    return LANGUAGES.get(found.group(1).lower(), "en") if found else "en"


def explain(label, result, db):
    name = label["name"]
    found = printings(db, name)
    read = result.get("extracted") or {}
    text = (result.get("evidence") or {}).get("text") or {}
    said = result_name(result)
    name_right = said is not None and norm(said) == norm(name)
    if not found:
        return "not in catalog"
    if not name_right:
        language = printed_language(label, read)
        if language != "en" and not any(p["lang"] == language for p in found) and not foreign_names(db, name, language):
            return "no printed name"
        if said:
            return "named another card"
        if text.get("text_name") and norm(text["text_name"]) == norm(name):
            return "text below the rule"
        title_words = [w for w in (read.get("title") or "").split() if sum(c.isalpha() for c in w) >= 4]
        if not title_words and not read.get("collector_number") and len(text.get("words") or []) <= 1:
            return "read nothing legible"
        return "other"
    own = [p for p in found if p["set"] == label["set"] and p["number"] == label["collector_number"]]
    if not own:
        return "other"
    twins = [p for p in found if p["paper"] and p["lang"] == own[0]["lang"] and all(p[f] == own[0][f] for f in FEATURES)]
    return f"twins ({len(twins)})" if len(twins) > 1 else "printing open"


def card_height(path, result):
    """`, card N px tall` where the result put it (its quad's longer sides), when Pillow can size the image."""
    try:
        from PIL import Image, ImageOps
        with Image.open(path) as im:
            width, height = ImageOps.exif_transpose(im).size
    except Exception:  # no Pillow, or an image it cannot open: the height is left out
        return ""
    quad = result.get("quad") or []
    if len(quad) != 4:  # an error record, or no card located
        return ""
    q = [(x * width, (1 - y) * height) for x, y in quad]
    sides = [((q[i][0] - q[(i + 1) % 4][0]) ** 2 + (q[i][1] - q[(i + 1) % 4][1]) ** 2) ** 0.5 for i in range(4)]
    return f", card {int(max((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))} px tall"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("labels")
    ap.add_argument("scan")
    ap.add_argument("--catalog", required=True)
    ap.add_argument("--variant", help="only files under this variant's folder (the copies' labels)")
    ap.add_argument("--summary", action="store_true")
    args = ap.parse_args()
    for path, what in ((args.catalog, "catalog"), (args.labels, "labels file"), (args.scan, "scan output")):
        if not os.path.isfile(path):
            sys.exit(f"explain-misses: {path}: no such {what}")
    db = sqlite3.connect(f"file:{os.path.abspath(args.catalog)}?mode=ro", uri=True)
    root = os.path.dirname(os.path.abspath(args.labels))
    labels = {}
    with open(args.labels, newline="") as f:
        for row in csv.DictReader(f):
            if row["kind"] in SINGLE and row["name"] and (not args.variant or row["file"].startswith(args.variant + "/")):
                labels[os.path.normpath(os.path.join(root, row["file"]))] = row
    results = {}
    with open(args.scan) as f:
        for line in f:
            if line.strip():
                try:
                    r = json.loads(line)
                except json.JSONDecodeError as e:
                    sys.exit(f"explain-misses: {args.scan}: a line is not JSON ({e.msg})")
                results.setdefault(os.path.normpath(os.path.abspath(r["file"])), r)  # the main card
    causes = collections.Counter()
    for path, label in sorted(labels.items()):
        r = results.get(path)
        if r is None:
            causes["no result"] += 1
            if not args.summary:
                print(f"{label['file']}: no result")
            continue
        said = result_name(r)
        card = r.get("card")
        name_right = said is not None and norm(said) == norm(label["name"])
        printing_right = card is not None and card.get("set") == label["set"] and card["collector_number"] == label["collector_number"]
        if name_right and (not label["collector_number"] or printing_right):
            continue
        cause = explain(label, r, db)
        causes[cause.split(" (")[0]] += 1
        if args.summary:
            continue
        read = r.get("extracted") or {}
        text = (r.get("evidence") or {}).get("text") or {}
        fields = " ".join(f"{k}={v}" for k, v in read.items() if v is not None)
        words = len(text.get("words") or [])
        text_said = f"text: {text.get('text_name')} (score {text.get('score')}, lead {text.get('lead')}, {words} words)" if text.get("text_name") else "text: -"
        got = f"{card['name']} {card['set']} {card['collector_number']}" if card else (said or "-")
        want = f"{label['name']} {label['set']} {label['collector_number']}".strip()
        print(f"{label['file']}: {cause}{card_height(path, r)}\n  label {want}; result {r.get('status')} {got} ({(r.get('evidence') or {}).get('method')}); read {fields or '-'}; {text_said}")
    for cause, n in causes.most_common():
        print(f"{cause}: {n}")


if __name__ == "__main__":
    main()
