#!/usr/bin/env python3
"""Where the labelled card lies in each single-card photo, for the evidence variants of
scripts/robustness.sh (`notitle`, `nobottom`, `textonly` paint card regions, so they need the
card's corners with its top known).

    card-corners.py make LABELS.csv SCAN.jsonl > Fixtures/robustness/card-corners.csv
    card-corners.py sheet CORNERS.csv PHOTOS_DIR OUT.png     # every card cut out upright, to check by eye
    card-corners.py quads CORNERS.csv OUT_DIR                # OUT_DIR/<upright copy>.json, as evidence_variants.py takes it

`make` takes, from a `cardscan scan --json` of the upright copies (`out/robustness/up`, made by
`scripts/robustness.sh --copies-only up`, scanned with a full catalog), the result whose name is
the label's, and writes its quad in photo pixels of the upright copy (x right, y down; corners
top-left, top-right, bottom-right, bottom-left of the card as printed) with `checked` = `reader`.
The reader places a card it named by its text alone (no title read) either way up, so the sheet
must be looked at: a card cut out upside down is put right in the CSV by hand (the corners turned
by two, `checked` = `by eye: turned 180°`), a card cut out wrong has its corners measured by
hand (`by eye: measured`). Records are facts about the photos (where the card is), not the photos.

Before this file the variants used the quad `cardscan read` gave at the time the copies were
made: a reader change moved the painted regions, and a card read upside down without the
catalog's names had its art, not its text box, left by `textonly`.
"""
import csv
import json
import sys

FIELDS = ["file", "x0", "y0", "x1", "y1", "x2", "y2", "x3", "y3", "checked"]


def upright_name(label_file):
    """The upright copy's file name for a label row (as scripts/robustness.sh names it)."""
    stem = label_file.replace("/", "_").rsplit(".", 1)[0]
    return stem + ".jpg"


def make(labels_path, scan_path):
    from PIL import Image
    labels = {}
    for row in csv.DictReader(open(labels_path, newline="")):
        if row["kind"] == "photo_single":
            labels.setdefault(row["file"], row)
    by_copy = {upright_name(f): row for f, row in labels.items()}
    found = {}
    for line in open(scan_path):
        result = json.loads(line)
        copy = result["file"].rsplit("/", 1)[-1]
        row = by_copy.get(copy)
        if row is None or copy in found:
            continue
        name = (result.get("card") or {}).get("name") or next((c["name"] for c in result.get("candidates", [])), None)
        if name != row["name"]:
            continue
        width, height = Image.open(result["file"]).size
        # scan --json gives corners normalised 0-1 with a bottom-left origin.
        corners = [(x * width, (1 - y) * height) for x, y in result["quad"]]
        found[copy] = (row["file"], corners)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(FIELDS)
    for copy in sorted(found):
        file, corners = found[copy]
        out.writerow([file] + [f"{v:.1f}" for p in corners for v in p] + ["reader"])
    missing = sorted(set(labels) - {f for f, _ in found.values()})
    for file in missing:
        print(f"card-corners: {file}: no result named {labels[file]['name']!r}; measure its corners by hand", file=sys.stderr)


def read_corners(path):
    """file -> [(x, y)] * 4 (top-left, top-right, bottom-right, bottom-left)."""
    table = {}
    for row in csv.DictReader(open(path, newline="")):
        values = [float(row[k]) for k in FIELDS[1:9]]
        table[row["file"]] = list(zip(values[0::2], values[1::2]))
    return table


def quads(corners_path, out_dir):
    for file, corners in read_corners(corners_path).items():
        with open(f"{out_dir}/{upright_name(file)}.json", "w") as out:
            json.dump({"corners": [{"x": x, "y": y} for x, y in corners]}, out)


def sheet(corners_path, photos_dir, out_path):
    from PIL import Image, ImageDraw
    tiles = []
    for file, (tl, tr, br, bl) in sorted(read_corners(corners_path).items()):
        image = Image.open(f"{photos_dir}/{upright_name(file)}").convert("RGB")
        tile = image.transform((150, 210), Image.QUAD, (*tl, *bl, *br, *tr), Image.BILINEAR)
        ImageDraw.Draw(tile).text((3, 198), upright_name(file)[-24:], fill=(255, 0, 0))
        tiles.append(tile)
    columns = 13
    rows = (len(tiles) + columns - 1) // columns
    board = Image.new("RGB", (columns * 150, rows * 210), "white")
    for i, tile in enumerate(tiles):
        board.paste(tile, ((i % columns) * 150, (i // columns) * 210))
    board.save(out_path)


def main(argv):
    if len(argv) == 3 and argv[0] == "make":
        make(argv[1], argv[2])
    elif len(argv) == 3 and argv[0] == "quads":
        quads(argv[1], argv[2])
    elif len(argv) == 4 and argv[0] == "sheet":
        sheet(argv[1], argv[2], argv[3])
    else:
        sys.exit("usage: card-corners.py make LABELS.csv SCAN.jsonl | quads CORNERS.csv OUT_DIR | sheet CORNERS.csv PHOTOS_DIR OUT.png")


if __name__ == "__main__":
    main(sys.argv[1:])
