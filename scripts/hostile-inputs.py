#!/usr/bin/env python3
"""Makes a set of hostile inputs and runs cardscan's commands on each, checking that every bad
file gives one clear error line naming it, in time, with the documented exit status, and that
nothing already stored is lost.

    scripts/hostile-inputs.py run [--cardscan BIN] [--timeout S] [--keep]   # make, run, print a table
    scripts/hostile-inputs.py make DIR                                       # only make the files

`run` makes the set in a temporary folder and, with `CARDSCAN_HOME` there (the built-in sample
catalog), runs per photo file: `scan FILE --json`, `import FILE`, `identify FILE`, `read FILE`;
then `scan DIR --json --jobs 2` and `import DIR --jobs 2` over the whole folder (a good photo
among the bad ones); per card-data file: `catalog import FILE` over an imported catalog. A check
fails when a command takes longer than the time limit (it is killed), dies from a signal or
prints a crash report, exits with another status than the expected one (2 for a file that could
not be used, 1 for a batch where some files failed), prints not exactly one line on stderr
naming the file (a decoder's own chatter counts as a stray line), or when the collection or the
catalog lost anything (an earlier card, its integrity, the catalog's printings). Prints a
Markdown table and exits 1 when any check failed.

Only the files need a real encoder come from the repository's fixtures (Fixtures/hostile,
Fixtures/synthetic); everything else is built here. Python 3, standard library only.
"""
import argparse
import gzip
import json
import os
import shutil
import sqlite3
import stat
import struct
import subprocess
import sys
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOSTILE = os.path.join(ROOT, "Fixtures", "hostile")
SYNTHETIC = os.path.join(ROOT, "Fixtures", "synthetic")
GOOD_PHOTO = "good.jpg"  # a real card photo among the bad files: the batch must go on and read it


def fixture(*parts):
    with open(os.path.join(ROOT, "Fixtures", *parts), "rb") as f:
        return f.read()


def png(width, height, color_type=0, rows=None):
    """A valid PNG (8-bit grey or RGB) of the given size; `rows` are raw scanlines without filter."""
    channels = {0: 1, 2: 3}[color_type]
    if rows is None:
        rows = [bytes([128] * width * channels)] * height
    raw = b"".join(b"\x00" + r for r in rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def patch_png_size(data, width, height):
    """The PNG with its IHDR claiming another size (CRC fixed, so only the size is wrong)."""
    ihdr = bytearray(data[12:29])
    ihdr[4:12] = struct.pack(">II", width, height)
    crc = struct.pack(">I", zlib.crc32(bytes(ihdr)) & 0xFFFFFFFF)
    return data[:12] + bytes(ihdr) + crc + data[33:]


def marker_offset(data, codes):
    for i in range(2, len(data) - 1):
        if data[i] == 0xFF and data[i + 1] in codes:
            return i
    raise ValueError("marker not found")


def patch_jpeg_size(data, width, height):
    """The JPEG with its SOF0/SOF2 claiming another size."""
    sof = marker_offset(data, (0xC0, 0xC2))
    out = bytearray(data)
    out[sof + 5:sof + 9] = struct.pack(">HH", height, width)
    return bytes(out)


# What each photo file is, the bytes (or the kind of special file), and a word its error must hold.
def photo_cases():
    photo = fixture("synthetic", "broodhunter_wurm_photo.jpg")
    rgb = fixture("hostile", "rgb.jpg")
    progressive = fixture("hostile", "progressive.jpg")
    cmyk = fixture("hostile", "cmyk.jpg")
    good_png = png(64, 48)
    sos = marker_offset(rgb, (0xDA,))
    flipped = bytearray(rgb)
    for i in range(sos + 40, sos + 80):
        flipped[i] ^= 0x5A
    bad_crc = bytearray(good_png)
    bad_crc[-20] ^= 0xFF
    return [
        # name, what, content (bytes or a special-file kind), word in the error
        (b"p.jpg", "FIFO named .jpg", ("fifo",), "FIFO"),
        (b"z.jpg", "symlink to /dev/zero", ("symlink", b"/dev/zero"), "device"),
        (b"null.jpg", "symlink to /dev/null", ("symlink", b"/dev/null"), "device"),
        (b"loop.jpg", "symlink to itself", ("symlink", b"loop.jpg"), "link loop"),
        (b"gone.jpg", "broken symlink", ("symlink", b"nowhere.jpg"), "broken symbolic link"),
        (b"x.jpg", "directory named .jpg", ("directory",), "directory|no image files found"),
        (b"zero.jpg", "zero bytes", b"", "empty"),
        (b"text.jpg", "text file named .jpg", b"shopping list: milk, eggs\n", "text file"),
        (b"pdf.jpg", "PDF named .jpg", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", "PDF"),
        (b"heic.jpg", "HEIC named .jpg", struct.pack(">I", 24) + b"ftypheic" + b"\0\0\0\0mif1heic" + b"\0" * 64, "HEIC"),
        (b"short.jpg", "JPEG signature only", b"\xff\xd8\xff", "unsupported"),
        (b"truncated.jpg", "JPEG cut at a third", photo[:len(photo) // 3], "truncated JPEG"),
        (b"headers-only.jpg", "JPEG cut at its scan", rgb[:sos], "truncated JPEG"),
        (b"no-eoi.jpg", "JPEG without its end marker", photo[:-2], "truncated JPEG"),
        (b"bitflip.jpg", "JPEG with flipped scan bytes", bytes(flipped), "corrupt"),
        (b"extra-bytes.jpg", "JPEG with bytes before its end marker", rgb[:-2] + b"\xff\xfe\x00\x04AB\x12\x34\x56\xff\xd9", "extraneous bytes"),
        (b"progressive-cut.jpg", "progressive JPEG cut at two thirds", progressive[:len(progressive) * 2 // 3], "corrupt"),
        (b"cmyk-cut.jpg", "CMYK JPEG cut in half", cmyk[:len(cmyk) // 2], "corrupt"),
        (b"huge-dims.jpg", "JPEG header claiming 60000x60000", patch_jpeg_size(rgb, 60000, 60000), "above the limit"),
        (b"huge-progressive.jpg", "progressive JPEG header claiming 12000x10000", patch_jpeg_size(progressive, 12000, 10000), "needs"),
        (b"truncated.png", "PNG cut in half", good_png[:len(good_png) // 2], "corrupt"),
        (b"bad-crc.png", "PNG with a bad CRC", bytes(bad_crc), "corrupt"),
        (b"huge-dims.png", "PNG header claiming 100000x100000", patch_png_size(good_png, 100000, 100000), "above the limit"),
        (b"one.png", "1x1 PNG", png(1, 1), "too small"),
        (b"garbage.tif", "TIFF magic and garbage", b"II*\x00" + bytes((i * 37) & 0xFF for i in range(2048)), "corrupt"),
        (b"garbage.gif", "GIF magic and garbage", b"GIF89a" + bytes((i * 53) & 0xFF for i in range(2048)), "corrupt"),
        (b"garbage.webp", "WebP magic and garbage", b"RIFF\x00\x10\x00\x00WEBPVP8 " + bytes((i * 11) & 0xFF for i in range(2048)), "corrupt"),
        (b"Sch\xf6n.jpg", "name that is not UTF-8", photo[:len(photo) // 3], "not valid UTF-8"),
        (b"new\nline.jpg", "newline in the name", photo[:len(photo) // 3], "truncated JPEG"),
        (b"unreadable.jpg", "chmod 000 (root reads it anyway)", ("chmod000", photo[:len(photo) // 3]), "permission denied|truncated JPEG"),
    ]


def catalog_cases():
    cards = fixture("catalog", "sample-cards.json")
    gz = gzip.compress(cards)
    return [
        (b"trailing.json.gz", "gzip followed by garbage", gz + b"garbage after the gzip member", "trailing"),
        (b"cut.json.gz", "gzip cut in half", gz[:len(gz) // 2], "truncated|cut short|unexpected end"),
        (b"cut.json", "JSON cut in half", cards[:len(cards) // 2], "truncated|unexpected end|malformed|invalid"),
        (b"text.json", "text file", b"not json at all\n", "expected|not|invalid"),
        (b"zero.json", "zero bytes", b"", "empty|no card|expected"),
        (b"fifo.json", "FIFO named .json", ("fifo",), "FIFO"),
        (b"zero.json.gz", "symlink to /dev/zero", ("symlink", b"/dev/zero"), "device"),
        (b"dir.json", "directory named .json", ("directory",), "directory"),
    ]


def make_file(directory, name, content):
    path = os.path.join(directory, name)
    if isinstance(content, tuple):
        kind = content[0]
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "symlink":
            os.symlink(content[1], path)
        elif kind == "directory":
            os.mkdir(path)
        elif kind == "chmod000":
            with open(path, "wb") as f:
                f.write(content[1])
            os.chmod(path, 0)
    else:
        with open(path, "wb") as f:
            f.write(content)
    return path


def make(directory):
    """Writes the photo set into DIR/photos (with one good photo) and the card data into DIR/carddata."""
    photos = os.path.join(directory, b"photos")
    carddata = os.path.join(directory, b"carddata")
    os.makedirs(photos, exist_ok=True)
    os.makedirs(carddata, exist_ok=True)
    for name, _, content, _ in photo_cases():
        make_file(photos, name, content)
    with open(os.path.join(photos, GOOD_PHOTO.encode()), "wb") as f:
        f.write(fixture("synthetic", "broodhunter_wurm_photo.jpg"))
    for name, _, content, _ in catalog_cases():
        make_file(carddata, name, content)
    return photos, carddata


def shown(name):
    """A file name as cardscan prints it: control characters escaped, bytes that are not UTF-8
    replaced (U+FFFD)."""
    text = name.decode("utf-8", errors="replace")
    return text.replace("\n", "\\n")


def names(line, name):
    """Whether an output line names the file `name` (as a path: after a slash, before a colon or
    at the end of the line; so `p.jpg` is not found in `bitflip.jpg`)."""
    needle = "/" + shown(name)
    return needle + ":" in line or line.endswith(needle)


class Runner:
    def __init__(self, binary, home, timeout):
        self.binary, self.home, self.timeout = binary, home, timeout
        self.failures = []

    def run(self, args):
        env = dict(os.environ, CARDSCAN_HOME=self.home)
        start = time.monotonic()
        try:
            p = subprocess.run([self.binary.encode()] + args, env=env, capture_output=True, timeout=self.timeout,
                               stdin=subprocess.DEVNULL)
            status, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            status, out, err = None, e.stdout or b"", e.stderr or b""
        seconds = time.monotonic() - start
        return status, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), seconds

    def check(self, label, args, name, cause, expected_status, report_on_stdout=False):
        """Runs one command on one file; returns a table cell and records failures. The error line
        is looked for on stderr (and on stdout too for `import`, whose per-photo report there
        says `FILE: failed: reason`)."""
        status, out, err, seconds = self.run(args)
        problems = []
        if status is None:
            problems.append(f"hung (killed after {self.timeout} s)")
        elif status < 0 or status >= 128:
            problems.append(f"died from signal {-status if status < 0 else status - 128}")
        elif status not in expected_status:
            problems.append(f"exit {status}, expected {'/'.join(map(str, expected_status))}")
        if "Fatal error" in err or "Crash" in err or "Segmentation" in err:
            problems.append("crash report on stderr")
        lines = [l for l in err.splitlines() if l.strip() and "sample catalog" not in l and not l.startswith("scanned ")
                 and not l.startswith("imported ")]
        if report_on_stdout:
            lines += [l for l in out.splitlines() if l.strip() and not l.startswith("imported ")]
        mine = [l for l in lines if names(l, name)]
        if len(mine) != 1:
            problems.append(f"{len(mine)} stderr lines name the file")
        elif not any(word in mine[0] for word in cause.split("|")):
            problems.append(f"error does not say '{cause}': {mine[0]}")
        stray = [l for l in lines if not names(l, name)]
        if stray:
            problems.append(f"stray stderr lines: {stray[:3]}")
        if problems:
            self.failures.append(f"{label} {shown(name)}: " + "; ".join(problems))
        cell = f"{'?' if status is None else status} {seconds:.1f}s" + ("" if not problems else " **FAIL**")
        return cell, (mine[0] if len(mine) == 1 else "")


def table(header, rows):
    """A Markdown table; the first column (a file name) as code."""
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(f"`{c}`" if i == 0 else c for i, c in enumerate(row)) + " |")


def collection_state(home):
    path = os.path.join(home, "collection.sqlite")
    if not os.path.exists(path):
        return None, "no collection"
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        return db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0], integrity
    finally:
        db.close()


def run(args):
    binary = os.path.abspath(args.cardscan)
    if not os.access(binary, os.X_OK):
        sys.exit(f"hostile-inputs: {binary}: not an executable (build it: swift build -c release)")
    work = tempfile.mkdtemp(prefix="cardscan-hostile-")
    try:
        photos, carddata = make(work.encode())
        home = os.path.join(work, "home")
        runner = Runner(binary, home, args.timeout)
        rows = []
        # An earlier import that must survive everything below.
        good = os.path.join(photos, GOOD_PHOTO.encode())
        status, out, err, _ = runner.run([b"import", good])
        if status != 0:
            sys.exit(f"hostile-inputs: importing the good photo failed ({status}): {err}")
        listed_before = runner.run([b"collection", b"list", b"--json"])[1]

        for name, what, _, cause in photo_cases():
            path = os.path.join(photos, name)
            cells, example = [], ""
            # scan and import are batch commands: a photo that fails is exit 1 ("some failed"),
            # a path with nothing to read (a broken link, a loop) exit 2.
            for label, cmd, expected in (("scan", [b"scan", path, b"--json"], {1, 2}), ("import", [b"import", path], {1, 2}),
                                         ("identify", [b"identify", path], {2}), ("read", [b"read", path], {2})):
                cell, line = runner.check(label, cmd, name, cause, expected, report_on_stdout=label == "import")
                cells.append(cell)
                example = example or line
            rows.append((shown(name), what, *cells, example.replace(work, "$TMP").replace("|", "\\|")))

        # The whole folder at once: each bad file one line, the good photo read, exit 1.
        batch = {}
        for label, cmd in (("scan", [b"scan", photos, b"--json", b"--jobs", b"2"]),
                           ("import", [b"import", photos, b"--jobs", b"2"])):
            status, out, err, seconds = runner.run(cmd)
            problems = []
            if status != 1:
                problems.append(f"exit {status}, expected 1")
            told = err.splitlines() + (out.splitlines() if label == "import" else [])
            for name, _, _, _ in photo_cases():
                n = sum(1 for l in told if names(l, name))
                if n != 1:
                    problems.append(f"{shown(name)}: {n} lines")
            if label == "scan" and '"status":"identified"' not in out.replace(" ", ""):
                problems.append("the good photo was not identified")
            if seconds > args.timeout:
                problems.append("too slow")
            batch[label] = (status, seconds, problems)
            if problems:
                runner.failures.append(f"batch {label}: " + "; ".join(problems))

        # Nothing stored was lost: the earlier card is still listed, the database is intact.
        listed_after = runner.run([b"collection", b"list", b"--json"])[1]
        _, integrity = collection_state(home)
        before_ids = {(r.get("id"), r.get("quantity")) for r in json.loads(listed_before or "[]")}
        after = json.loads(listed_after or "[]")
        kept = all(any(r.get("id") == i for r in after) for i, _ in before_ids)
        if not kept or integrity != "ok":
            runner.failures.append(f"collection: earlier card kept {kept}, integrity {integrity}")

        # Card data for catalog import, over an imported catalog that must stay as it was.
        sample = os.path.join(ROOT, "Fixtures", "catalog", "sample-cards.json")
        runner.run([b"catalog", b"import", sample.encode()])
        info_before = runner.run([b"catalog", b"info", b"--json"])[1]
        catalog_rows = []
        for name, what, _, cause in catalog_cases():
            path = os.path.join(carddata, name)
            cell, line = runner.check("catalog import", [b"catalog", b"import", path], name, cause, {2})
            catalog_rows.append((shown(name), what, cell, line.replace(work, "$TMP").replace("|", "\\|")))
        info_after = runner.run([b"catalog", b"info", b"--json"])[1]
        printings = lambda text: ((json.loads(text or "{}") or {}).get("info") or {}).get("printings")
        if printings(info_before) != printings(info_after) or printings(info_after) in (None, 0):
            runner.failures.append(f"catalog: printings {printings(info_before)} before, {printings(info_after)} after")

        print(f"Hostile inputs: {len(rows)} photo files, {len(catalog_rows)} card-data files; {binary}")
        print()
        table(["file", "what", "scan", "import", "identify", "read", "error line"], rows)
        print()
        for label, (status, seconds, problems) in batch.items():
            print(f"- `{label} DIR --jobs 2` (good photo among the {len(rows)} bad): exit {status}, {seconds:.1f} s"
                  + ("" if not problems else " **FAIL**: " + "; ".join(problems)))
        print(f"- collection after everything: earlier card kept: {kept}, integrity {integrity}")
        print()
        table(["card data", "what", "catalog import", "error line"], catalog_rows)
        print(f"- catalog after everything: {printings(info_after)} printings (before: {printings(info_before)})")
        print()
        print("cells: exit status and seconds. " + ("All checks passed." if not runner.failures else
                                                     f"{len(runner.failures)} checks FAILED:"))
        for f in runner.failures:
            print(f"  - {f}")
        return 1 if runner.failures else 0
    finally:
        if args.keep:
            print(f"(kept {work})", file=sys.stderr)
        else:
            for dirpath, dirnames, filenames in os.walk(work):
                for n in filenames:
                    p = os.path.join(dirpath, n)
                    if not os.path.islink(p):
                        try:
                            os.chmod(p, stat.S_IRUSR | stat.S_IWUSR)
                        except OSError:
                            pass
            shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="make the set in a temporary folder, run every command, print a table")
    r.add_argument("--cardscan", default=os.path.join(ROOT, ".build", "release", "cardscan"))
    r.add_argument("--timeout", type=float, default=10, help="seconds before a command counts as hung")
    r.add_argument("--keep", action="store_true", help="keep the temporary folder")
    m = sub.add_parser("make", help="only make the files")
    m.add_argument("directory")
    args = parser.parse_args()
    if args.command == "make":
        photos, carddata = make(os.fsencode(args.directory))
        print(f"made {len(photo_cases())} photo files (+ {GOOD_PHOTO}) in {os.fsdecode(photos)}, "
              f"{len(catalog_cases())} card-data files in {os.fsdecode(carddata)}")
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
