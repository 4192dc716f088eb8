#!/usr/bin/env python3
"""Copies of the labelled several-card photos (`photo_multi`) of ../shared/photos, turned, tilted,
shrunk, darkened and recompressed: what `scripts/robustness.sh` does for the single-card photos,
for issue 23's photos (15 photos, 107 labelled cards; one change helping one photo is noise).

    scripts/several-card-copies.py [OUT]          # default out/several-card-copies

Each photo is made upright as a viewer shows it (EXIF applied, then left out), saved at JPEG
quality 95, and turned into these variants (ImageMagick's `convert`, as robustness.sh uses):

    up      the upright copy
    r90     turned a quarter
    a30     tilted 30 degrees on a grown grey canvas
    half    half the width and height
    dark    brightness at 55%
    q40     recompressed at JPEG quality 40

OUT/labels.csv holds the labels with each file as `VARIANT/NAME.jpg`, so that

    cardscan scan OUT -r --json > scan.jsonl
    scripts/score-scans.py OUT/labels.csv scan.jsonl --by variant [--wrong]

scores them as the shared photos are (cards named, identified, extra results). The copies stay
out of git (the photos are not ours to commit).
"""
import csv
import os
import shutil
import subprocess
import sys

try:
    from PIL import Image, ImageOps
except ImportError:
    sys.exit("several-card-copies: Pillow is needed (pip install Pillow)")

VARIANTS = {
    "up": [],
    "r90": ["-rotate", "90"],
    "a30": ["-background", "gray50", "-rotate", "30"],
    "half": ["-resize", "50%"],
    "dark": ["-modulate", "55"],
    "q40": ["-quality", "40"],
}


def main() -> int:
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    photos = os.path.join(root, "..", "shared", "photos")
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "out", "several-card-copies")
    convert = shutil.which("convert-im6.q16") or shutil.which("convert")
    if convert is None:
        print("several-card-copies: ImageMagick's convert is needed (Debian imagemagick)", file=sys.stderr)
        return 2
    with open(os.path.join(photos, "labels.csv"), newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["kind"] == "photo_multi"]
    if not rows:
        print(f"several-card-copies: no photo_multi label in {photos}/labels.csv", file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    files = sorted({r["file"] for r in rows})
    # The labels are written beside and moved into place at the end: a run that fails leaves
    # no half-written labels.csv.
    partial = os.path.join(out, "labels.csv.partial")
    with open(partial, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        for n, name in enumerate(files, 1):
            flat = os.path.splitext(name.replace("/", "_"))[0] + ".jpg"
            upright = os.path.join(out, "upright-" + flat)
            try:
                with Image.open(os.path.join(photos, name)) as photo:
                    ImageOps.exif_transpose(photo).convert("RGB").save(upright, quality=95)
                for variant, args in VARIANTS.items():
                    os.makedirs(os.path.join(out, variant), exist_ok=True)
                    quality = [] if variant == "q40" else ["-quality", "95"]
                    subprocess.run([convert, upright, *args, *quality, os.path.join(out, variant, flat)], check=True)
                    for r in rows:
                        if r["file"] == name:
                            writer.writerow(dict(r, file=f"{variant}/{flat}"))
            except (OSError, subprocess.CalledProcessError) as error:
                print(f"several-card-copies: {name}: {error}", file=sys.stderr)
                return 1
            finally:
                if os.path.exists(upright):
                    os.remove(upright)
            print(f"{n}/{len(files)} {name}", file=sys.stderr)
    os.replace(partial, os.path.join(out, "labels.csv"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
