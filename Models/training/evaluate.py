#!/usr/bin/env python3
"""Character error rate, whole-field accuracy and time per band of Tesseract models on the real
bands cut by cut_bands.py, read as the reader reads them: libtesseract through its C API, one
engine per model initialised once, OpenMP kept to one thread, 300 dpi, Tesseract's own
binarisation and inverted retry, the reader's page segmentation per band (title PSM 6, collector
PSM 11, copyright PSM 6).

    evaluate.py out/bands/manifest.csv --model fast=/usr/share/tesseract-ocr/5/tessdata:eng \
        --model ours=Models:cardscan_collector@collector [--markdown] [--json out.json]

A model is NAME=TESSDATA_DIR:LANG, optionally @BAND[,BAND] to evaluate it on those bands only.

Collector band (2015-2022 frames): the truth is line 1 `171/274 C` and the start of line 2
`BFZ • EN` (the artist after it is not judged). The CER of a truth line is the edit distance to the
closest stretch of any read line, over the truth's length (spaces collapsed). Fields: `number`
(`171/274` read as a word), `set` (`BFZ`), `lang` (`EN` as the word after the set code), `rarity`
(the word after the number), `set+number` both. Title: CER against the printed name, and `name`: the name read letter for
letter within a line (marks of the frame around it are left to the reader's cleaner). Copyright
band (1998-2014 frames): `number` (`174/274`) read as a word. Times are CPU milliseconds of the
recognising thread (the machine is shared; wall time would count the others' work).
"""
import argparse
import csv
import ctypes
import json
import os
import re
import statistics
import sys
import time

os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # before libtesseract (libgomp) is loaded

from PIL import Image  # noqa: E402

PSM = {"title": 6, "collector": 11, "copyright": 6}


class Engine:
    def __init__(self, datapath, lang):
        self.lib = lib = ctypes.CDLL("libtesseract.so.5")
        lib.TessBaseAPICreate.restype = ctypes.c_void_p
        lib.TessBaseAPIInit3.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
        lib.TessBaseAPISetPageSegMode.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.TessBaseAPISetImage.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        lib.TessBaseAPISetSourceResolution.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.TessBaseAPIRecognize.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lib.TessBaseAPIGetUTF8Text.argtypes = [ctypes.c_void_p]
        lib.TessBaseAPIGetUTF8Text.restype = ctypes.c_void_p
        lib.TessDeleteText.argtypes = [ctypes.c_void_p]
        lib.TessBaseAPIClear.argtypes = [ctypes.c_void_p]
        lib.TessBaseAPISetVariable.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
        self.api = lib.TessBaseAPICreate()
        if lib.TessBaseAPIInit3(self.api, datapath.encode(), lang.encode()) != 0:
            sys.exit(f"evaluate: cannot load {lang}.traineddata from {datapath}")
        lib.TessBaseAPISetVariable(self.api, b"debug_file", b"/dev/null")

    def read(self, image, psm):
        """(text, milliseconds) of one grey image."""
        lib, api = self.lib, self.api
        data = image.tobytes()
        began = time.thread_time()  # CPU time: the machine is shared
        lib.TessBaseAPISetImage(api, data, image.width, image.height, 1, image.width)
        lib.TessBaseAPISetSourceResolution(api, 300)
        lib.TessBaseAPISetPageSegMode(api, psm)
        lib.TessBaseAPIRecognize(api, None)
        pointer = lib.TessBaseAPIGetUTF8Text(api)
        text = ctypes.string_at(pointer).decode("utf-8", "replace") if pointer else ""
        if pointer:
            lib.TessDeleteText(pointer)
        lib.TessBaseAPIClear(api)
        return text, (time.thread_time() - began) * 1000


def collapse(s):
    return " ".join(s.split())


def substring_distance(truth, line):
    """Edit distance from `truth` to the closest stretch of `line` (free to skip text around it)."""
    previous = [0] * (len(line) + 1)
    for i, t in enumerate(truth, 1):
        current = [i] + [0] * len(line)
        for j, c in enumerate(line, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (t != c))
        previous = current
    return min(previous)


def line_errors(truth, text):
    lines = [collapse(l) for l in text.splitlines() if l.strip()] or [""]
    return min(substring_distance(truth, l) for l in lines)


def words(text):
    return re.findall(r"[^\s•*★+«¢·.,:;|]+", text)


def collector_fields(row, text):
    w = words(text)
    number = f"{row['number']}/{row['set_size']}"
    found = {"number": number in w}
    found["rarity"] = any(a == number and b == row["rarity"] for a, b in zip(w, w[1:]))
    found["set"] = row["set"] in w
    found["lang"] = any(a == row["set"] and b == row["lang"] for a, b in zip(w, w[1:]))
    found["set+number"] = found["set"] and found["number"]
    return found


def evaluate(rows, engines, bands_of):
    results = {}
    for name, engine in engines.items():
        for row in rows:
            band = row["band"]
            if bands_of[name] and band not in bands_of[name]:
                continue
            truths = judged_truths(row)
            if not truths:
                continue
            image = Image.open(row["image"]).convert("L")
            text, ms = engine.read(image, PSM[band])
            errors = sum(line_errors(t, text) for t in truths)
            if band == "collector":
                fields = collector_fields(row, text)
            elif band == "title":
                fields = {"name": any(truths[0] in collapse(l) for l in text.splitlines())}
            else:
                fields = {"number": f"{int(row['number'])}/{row['set_size']}" in words(text)}
            key = (row["source"], band, name)
            r = results.setdefault(key, {"n": 0, "chars": 0, "errors": 0, "ms": [], "lines": 0, "fields": {}, "reads": []})
            r["n"] += 1
            r["chars"] += sum(len(t) for t in truths)
            r["errors"] += errors
            r["ms"].append(ms)
            r["lines"] += len(truths)
            for f, ok in fields.items():
                r["fields"][f] = r["fields"].get(f, 0) + int(ok)
            r["reads"].append({"photo": row["photo"], "text": text, "truth": truths, "fields": fields})
    return results


def judged_truths(row):
    if row["band"] == "collector":
        return [row["line1"], row["line2"]] if row["line1"] else []
    if row["band"] == "title":
        return [row["title"]] if row["title"] else []
    if row["band"] == "copyright":
        return [f"{int(row['number'])}/{row['set_size']}"] if row["era"] in ("1997", "2003") and row["number"].isdigit() else []
    return []


def markdown(results):
    out = ["| source | band | model | bands | CER | fields read | ms per band (median) | ms per line (mean) |",
           "|---|---|---|---|---|---|---|---|"]
    for (source, band, name), r in sorted(results.items()):
        fields = ", ".join(f"{f} {v}/{r['n']}" for f, v in r["fields"].items())
        cer = 100 * r["errors"] / max(1, r["chars"])
        out.append(f"| {source} | {band} | {name} | {r['n']} | {cer:.1f}% | {fields} | "
                   f"{statistics.median(r['ms']):.1f} | {sum(r['ms']) / max(1, r['lines']):.1f} |")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("manifest")
    p.add_argument("--model", action="append", required=True, help="NAME=TESSDATA_DIR:LANG[@BAND,...]")
    p.add_argument("--source", action="append", help="only these sources (folder names in the manifest)")
    p.add_argument("--json", help="also write every read here")
    args = p.parse_args()
    rows = [r for r in csv.DictReader(open(args.manifest, encoding="utf-8")) if not args.source or r["source"] in args.source]
    engines, bands_of = {}, {}
    for spec in args.model:
        name, _, rest = spec.partition("=")
        rest, _, bands = rest.partition("@")
        datapath, _, lang = rest.rpartition(":")
        engines[name] = Engine(datapath, lang)
        bands_of[name] = set(bands.split(",")) if bands else set()
    results = evaluate(rows, engines, bands_of)
    print(markdown(results))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({" / ".join(k): v for k, v in results.items()}, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
