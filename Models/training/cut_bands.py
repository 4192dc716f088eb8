#!/usr/bin/env python3
"""The validation set: the title, collector and copyright bands of labelled photos, cut by the
reader itself (`cardscan read PHOTO --bands DIR`), with their true text from the label and the
catalog. Nothing here is trained on.

    cut_bands.py --cardscan BIN --catalog C --out out/bands \
        ../shared/photos/labels.csv out/robustness/labels.csv

Rows of kind photo_single and scan with a name are used. Writes OUT/<source>/<n>/<photo>.<band>.png
and OUT/manifest.csv (one row per band image with its truth; empty truth = not known):
  source, photo, band, image, title, line1, line2, number, set_size, rarity, set, lang, era
The truth of the collector lines follows the printed forms (field notes): 2015-2022 frames
`171/274 C` / `BFZ • EN`; 1998-2014 frames print the number in the copyright line (`174/274`).
"""
import argparse
import csv
import os
import re
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

KINDS = {"photo_single", "scan"}
RARITY_LETTERS = {"common": "C", "uncommon": "U", "rare": "R", "mythic": "M", "special": "S", "bonus": "S"}
# Printed language codes (field notes) of the languages the label notes name.
PRINTED_LANGUAGE = {"es": "SP", "ja": "JP", "ko": "KR", "de": "DE", "fr": "FR", "it": "IT", "pt": "PT", "ru": "RU",
                    "zhs": "CS", "zht": "CT"}


def language(notes):
    m = re.search(r"non-English \((\w+)\)", notes)
    return m.group(1) if m else "en"


def printed_title(name, notes, lang):
    """The title as printed: the front face of a two-faced card; a Spanish printing's name as the
    label notes quote it; none for other languages (not in the catalog's names)."""
    if lang == "en":
        return name.split(" // ")[0]
    m = re.search(r'Spanish printing "+([^"]+)"+', notes)
    return m.group(1) if lang == "es" and m else ""


def truth(row, db):
    lang = language(row.get("notes", ""))
    t = {"title": printed_title(row["name"], row.get("notes", ""), lang), "line1": "", "line2": "", "number": "",
         "set_size": "", "rarity": "", "set": "", "lang": PRINTED_LANGUAGE.get(lang, "EN"), "era": ""}
    code, number = row["set"].strip().lower(), row["collector_number"].strip()
    if not code or not number:
        return t
    found = db.execute(
        "select p.rarity, p.frame, s.printed_size, s.released_at, p.type_line from printing p join card_set s on s.code = p.set_code "
        "where p.set_code = ? and p.collector_number = ? order by p.lang = 'en' desc limit 1", (code, number)).fetchone()
    if not found:
        return t
    rarity, frame, size, released, type_line = found
    letter = "L" if type_line and type_line.startswith("Basic Land") else RARITY_LETTERS.get(rarity, "")
    t.update(number=number, set_size=str(size or ""), rarity=letter, set=code.upper())
    if frame == "2015" and released < "2022-09-01" and size and number.isdigit():
        t["era"] = "2015"
        t["line1"] = f"{int(number):03d}/{size:03d} {letter}"
        t["line2"] = f"{code.upper()} • {t['lang']}"
        t["number"] = f"{int(number):03d}"
    elif frame in ("1997", "2003") and released >= "1998-01-01" and size:
        t["era"] = frame
    return t


def cut(cardscan, photo, folder):
    os.makedirs(folder, exist_ok=True)
    done = subprocess.run([cardscan, "read", photo, "--bands", folder], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    if done.returncode != 0:
        print(f"cut_bands: {photo}: {done.stderr.strip()}", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cardscan", required=True)
    p.add_argument("--catalog", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("labels", nargs="+")
    args = p.parse_args()
    db = sqlite3.connect(f"file:{args.catalog}?mode=ro", uri=True)
    jobs, rows = [], []
    for labels in args.labels:
        base = os.path.dirname(labels)
        source = os.path.basename(os.path.normpath(base))
        seen = set()
        for row in csv.DictReader(open(labels, encoding="utf-8")):
            if row["kind"] not in KINDS or not row["name"] or row["file"] in seen:
                continue
            seen.add(row["file"])
            folder = os.path.join(args.out, source, str(len(seen)))
            photo = os.path.join(base, row["file"])
            if not os.path.exists(photo):
                continue
            jobs.append((photo, folder))
            rows.append((source, row, folder, photo))
    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(lambda j: cut(args.cardscan, *j), jobs))
    fields = ["source", "photo", "band", "image", "title", "line1", "line2", "number", "set_size", "rarity", "set", "lang", "era"]
    with open(os.path.join(args.out, "manifest.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for source, row, folder, photo in rows:
            t = truth(row, db)
            stem = os.path.splitext(os.path.basename(photo))[0]
            for band in ("title", "collector", "copyright"):
                image = os.path.join(folder, f"{stem}.{band}.png")
                if os.path.exists(image):
                    w.writerow(dict(t, source=source, photo=row["file"], band=band, image=image))
    print(f"cut_bands: {len(rows)} photos, manifest {os.path.join(args.out, 'manifest.csv')}", file=sys.stderr)


if __name__ == "__main__":
    main()
