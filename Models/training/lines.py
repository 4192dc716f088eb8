#!/usr/bin/env python3
"""Training lines for cardscan's own Tesseract models: text from the card catalog, rendered with
Debian fonts and degraded the way the reader's rectified bands are.

    lines.py text  --catalog C --kind collector --count N --seed S > lines.txt
    lines.py render --kind collector --seed S lines.txt OUT_DIR     # OUT_DIR/page-NNN.tif + .box
    lines.py fixture OUT.png "171/274 C" "BFZ • EN"                  # plain lines, a test input

`text` writes one line of ground truth per output line. `render` draws each line once, in a font
and a condition drawn at random (seeded, so a run is reproducible), into multi-page TIFFs of 100
lines with Tesseract box files (one page per line, `lstm.train` with PSM 13 makes an .lstmf of
each TIFF). Config (fonts, character set, condition ranges) is in config.py beside this file.
"""
import argparse
import functools
import io
import math
import os
import random
import sqlite3
import sys
import unicodedata

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import config  # noqa: E402


# ---------------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------------

def ascii_fold(text):
    """Artist names as the small print shows them, in the model's character set (accents dropped)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(c for c in folded if c in config.COLLECTOR_CHARSET)


class Catalog:
    """What the generator draws from: sets with their printed sizes and years, real collector
    numbers per set, artists, card names."""

    def __init__(self, path):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        self.sets = [(code.upper(), size, released[:4]) for code, size, released in db.execute(
            "select code, printed_size, coalesce(released_at, '') from card_set "
            "where printed_size > 0 and length(code) between 3 and 4 order by code")]
        self.codes = sorted({c for c, _, _ in self.sets} | {
            c.upper() for (c,) in db.execute("select code from card_set where length(code) between 2 and 5")})
        self.numbers = {}
        for code, number in db.execute("select set_code, collector_number from printing where lang = 'en'"):
            if number.isdigit():
                self.numbers.setdefault(code.upper(), []).append(int(number))
        self.artists = sorted({ascii_fold(a) for (a,) in db.execute(
            "select distinct artist from printing where artist is not null") if ascii_fold(a).strip()})
        self.names = sorted({n.split(" // ")[0] for (n,) in db.execute("select distinct name from printing")})


def number_and_size(cat, rng):
    code, size, year = rng.choice(cat.sets)
    numbers = cat.numbers.get(code)
    n = rng.choice(numbers) if numbers and rng.random() < 0.7 else rng.randint(1, max(size, 9))
    return code, n, size, year


def collector_line(cat, rng):
    """One line of the bottom-left collector block or the copyright line, in the forms printed
    since 1998 (field notes: 2015-2022 `171/274 C` / `BFZ • EN`, 2023+ `0171 C` or `R 0200`,
    2003-2014 the number in the copyright line)."""
    kind = rng.choices(list(config.COLLECTOR_LINE_MIX), weights=list(config.COLLECTOR_LINE_MIX.values()))[0]
    rarity = rng.choice(config.RARITIES)
    lang = rng.choice(config.LANGUAGES_WEIGHTED)
    code, n, size, year = number_and_size(cat, rng)
    if kind == "number_2015":
        return f"{n:03d}/{size:03d} {rarity}" if rng.random() < 0.9 else f"{n:03d}/{size:03d}"
    if kind == "number_2023":
        return f"{n:04d} {rarity}" if rng.random() < 0.6 else f"{rarity} {n:04d}"
    if kind == "set_language":  # the artist after it on most cards
        bullet = "★" if rng.random() < 0.15 else "•"
        if rng.random() < 0.1:
            code = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(3))
        line = f"{code} {bullet} {lang}"
        if rng.random() < config.ARTIST_AFTER_SET:
            artist = rng.choice(cat.artists)
            line += ARTIST_MARK + (artist.upper() if rng.random() < 0.8 else artist)
        return line
    if kind == "copyright_number":  # 2003-2014 copyright line with the number
        return f"™ & © {year or rng.randint(2003, 2014)} Wizards of the Coast, Inc. {n}/{size}"
    if kind == "copyright":  # the copyright line of a modern frame, or of an older one
        y = year or str(rng.randint(1993, 2022))
        return rng.choice([f"™ & © {y} Wizards of the Coast", f"© {y} Wizards of the Coast, Inc.",
                           f"TM & © {y} Wizards of the Coast, Inc."])
    if kind == "illustrator":  # the artist credit of older frames
        return f"Illus. {rng.choice(cat.artists)}"
    # Digits and capitals in no particular order: the model must read what is printed, not guess.
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ/"
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))) for _ in range(rng.randint(1, 3))]
    return " ".join(words)


def title_line(cat, rng):
    return rng.choice(cat.names)


def make_text(args):
    rng = random.Random(args.seed)
    cat = Catalog(args.catalog)
    make = collector_line if args.kind == "collector" else title_line
    charset = config.COLLECTOR_CHARSET if args.kind == "collector" else None
    written = 0
    while written < args.count:
        line = make(cat, rng).strip()
        if not line or (charset and any(c not in charset for c in ground_truth(line))):
            continue
        print(line)
        written += 1


# ---------------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------------

# In a generated line, what follows this mark is the artist, drawn after a pen symbol in small
# capitals; the ground truth has a space in its place.
ARTIST_MARK = "|"
BRUSH = object()
GAP = object()  # blank space of its own width (word gaps, the gap before the pen)


def ground_truth(line):
    return " ".join(line.replace(ARTIST_MARK, " ").split())


def font_paths(kind):
    found = []
    for path in (config.COLLECTOR_FONTS if kind == "collector" else config.TITLE_FONTS):
        if os.path.exists(path):
            found.append(path)
    if not found:
        sys.exit("lines.py: none of the fonts in config.py is installed (scripts/train-model installs them)")
    return found


@functools.lru_cache(maxsize=None)
def draws(font_path, ch):
    """Whether the font draws `ch` (a missing character draws as the .notdef box, the same as a
    private-use character, or as nothing)."""
    font = ImageFont.truetype(font_path, 40)
    mask = font.getmask(ch)
    return ch == " " or (mask.getbbox() is not None and bytes(mask) != bytes(font.getmask("\ue000")))


def has_glyphs(font_path, text):
    return all(draws(font_path, c) for c in set(text))


def cap_height(font):
    box = font.getbbox("H")
    return box[3] - box[1]


def runs_of(text, font_path, serif_path, size, rng):
    """The pieces a line is drawn in: the text in its font with some letter spacing (the collector
    lines are widely spaced, some set codes very widely) and word gaps up to ~3 spaces wide (the
    rarity letter stands apart from the number), and after `|` the pen symbol, after a wider gap,
    and the artist in small capitals of a serif face, as 2015+ frames print them."""
    w = config.COLLECTOR_SPACING
    tracking = size * rng.choices([0, rng.uniform(*w["tracking"]), rng.uniform(*w["wide_tracking"])],
                                  weights=w["tracking_weights"])[0]
    gap = rng.uniform(*w["word_gap"]) if rng.random() < w["wide_gaps"] else 1.0
    text, _, artist = text.partition(ARTIST_MARK)
    font = ImageFont.truetype(font_path, size)
    runs = []
    for i, word in enumerate(text.split(" ")):
        if i:
            runs.append((GAP, font.getlength(" ") * gap, 0))
        runs.append((word, font, tracking))
    if artist:
        runs.append((GAP, size * rng.uniform(*w["pen_gap"]), 0))
        runs.append((BRUSH, size, 0))
        runs.append((GAP, size * rng.uniform(0.05, 0.2), 0))
        big, small = ImageFont.truetype(serif_path, size), ImageFont.truetype(serif_path, int(size * 0.78))
        for i, word in enumerate(artist.split(" ")):
            if i:
                runs.append((" ", big, 0))
            runs.append((word[:1], big, size * 0.03))
            if word[1:]:
                runs.append((word[1:], small if word[1:].isupper() else big, size * 0.03))
    return runs


def run_width(run):
    text, font, tracking = run
    if text is BRUSH:
        return int(font * BRUSH_WIDTH)
    if text is GAP:
        return font
    return sum(font.getlength(ch) + tracking for ch in text)


# The pen (a brush) printed before the artist's name on 2015+ frames, as drawn on the cards: a
# dark ferrule on the left and a leaf-shaped head pointing right with a light stroke inside, about
# 1.6 cap heights wide and a cap height tall. Outline in units of the font size, y up from the baseline.
BRUSH_WIDTH = 1.25
BRUSH_FERRULE = [(0.0, 0.02), (0.0, 0.62), (0.16, 0.56), (0.30, 0.40), (0.30, 0.12), (0.14, 0.0)]
BRUSH_HEAD = [(0.26, 0.20), (0.45, 0.50), (0.70, 0.62), (0.95, 0.55), (1.20, 0.34),
              (0.98, 0.12), (0.70, 0.02), (0.45, 0.04)]
BRUSH_HOLE = [(0.46, 0.40), (0.70, 0.50), (0.93, 0.42), (0.70, 0.36)]


def draw_brush(draw, x, baseline, s, ink, paper, rng):
    lean = rng.uniform(-0.04, 0.04)
    def points(shape):
        return [(x + (px + lean * py) * s, baseline - py * s) for px, py in shape]
    draw.polygon(points(BRUSH_FERRULE), fill=ink)
    draw.polygon(points(BRUSH_HEAD), fill=ink)
    if rng.random() < 0.8:
        draw.polygon(points(BRUSH_HOLE), fill=paper)


def draw_runs(draw, runs, x, baseline, ink, paper=255, rng=None):
    rng = rng or random.Random(0)
    for text, font, tracking in runs:
        if text is BRUSH:  # no character of its own: the truth has a space here
            draw_brush(draw, x, baseline, font, ink, paper, rng)
            x += int(font * BRUSH_WIDTH)
            continue
        if text is GAP:
            x += font
            continue
        for ch in text:
            draw.text((x, baseline), ch, font=font, fill=ink, anchor="ls")
            x += font.getlength(ch) + tracking
    return x


def render_line(text, font_path, rng, c, serif_path=None):
    """One line, degraded as a photo then rectified by the reader: drawn small (cap height
    `c.cap_height`), blurred, noised, JPEG-compressed at that size, then scaled up to the ~30 px
    capitals the reader rectifies to."""
    # Draw at 4x the small size and reduce: anti-aliased strokes as a camera sees them.
    low, high = c["cap_height"]
    target_cap = rng.triangular(low, high, low + (high - low) * 0.15)  # most lines are small
    probe = ImageFont.truetype(font_path, 100)
    size = max(4, int(round(100 * target_cap * 4 / max(1, cap_height(probe)))))
    runs = runs_of(text, font_path, serif_path or font_path, size, rng)
    width = int(sum(run_width(r) for r in runs))
    font = runs[0][1]
    ascent, descent = font.getmetrics()
    pad_x = int(size * rng.uniform(0.2, 1.0))
    pad_top = int(size * rng.uniform(0.05, 0.5))
    pad_bottom = int(size * rng.uniform(0.05, 0.5))
    w, h = width + 2 * pad_x, ascent + descent + pad_top + pad_bottom
    ink = rng.randint(*c["ink"])
    paper = rng.randint(*c["paper"])
    if paper - ink < c["min_contrast"]:
        paper = min(255, ink + c["min_contrast"])
    img = Image.new("L", (w, h), paper)
    draw = ImageDraw.Draw(img)
    # The neighbouring line or the frame's edge, cut by the band.
    if rng.random() < c["clutter"]:
        if rng.random() < 0.5:
            y = rng.choice([0, h - 1])
            draw.rectangle([rng.randint(0, w // 2), y - size // 14, rng.randint(w // 2, w), y + size // 14], fill=ink)
        else:
            other = "".join(rng.choice("0123456789/ ABCDEFGHIJKLMNOPRSTU") for _ in range(rng.randint(3, 12)))
            above = rng.random() < 0.5
            y = pad_top - int(size * rng.uniform(0.25, 0.45)) if above else h - pad_bottom + int(size * rng.uniform(0.9, 1.1))
            draw.text((pad_x + rng.randint(-size, size), y), other, font=font, fill=ink, anchor="ls" if above else "lt")
    draw_runs(draw, runs, pad_x, pad_top + ascent, ink, paper, rng)
    # Perspective and rotation left by an imperfect quad.
    if rng.random() < c["warp"]:
        img = img.rotate(rng.uniform(-2.0, 2.0), resample=Image.BICUBIC, expand=False, fillcolor=paper)
        shear = rng.uniform(-0.08, 0.08)
        img = img.transform(img.size, Image.AFFINE, (1, shear, -shear * h / 2, 0, 1, 0), resample=Image.BICUBIC, fillcolor=paper)
    # Uneven light and glare.
    if rng.random() < c["uneven_light"]:
        img = shade(img, rng)
    small = img.resize((max(1, w // 4), max(1, h // 4)), Image.BOX)
    blur = rng.uniform(*c["blur"])
    if blur > 0.15:
        small = small.filter(ImageFilter.GaussianBlur(blur))
    small = add_noise(small, rng, rng.uniform(*c["noise"]))
    printed_white = rng.random() < c["white_on_black"]
    if printed_white:
        small = Image.eval(small, lambda v: 255 - v)
    buffer = io.BytesIO()
    small.save(buffer, "JPEG", quality=rng.randint(*c["jpeg_quality"]))
    small = Image.open(io.BytesIO(buffer.getvalue())).convert("L")
    if printed_white and rng.random() >= c["keep_inverted"]:  # the reader turned the white text dark
        small = Image.eval(small, lambda v: 255 - v)
    scale = rng.uniform(*c["rectified_cap"]) / target_cap
    return small.resize((max(1, int(small.width * scale)), max(1, int(small.height * scale))), Image.BILINEAR)


def shade(img, rng):
    """A broad patch of light or shadow (glare, uneven lighting)."""
    a = np.asarray(img, dtype=np.float32)
    h, w = a.shape
    cx, cy = rng.uniform(0, w), rng.uniform(-h, 2 * h)
    radius = rng.uniform(0.3, 1.5) * w
    yy, xx = np.mgrid[0:h, 0:w]
    d = np.hypot(xx - cx, yy - cy) / radius
    a += rng.uniform(-70, 70) * np.clip(1 - d, 0, 1)
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))


def add_noise(img, rng, sigma):
    """Sensor noise, Gaussian with deviation `sigma` grey levels."""
    if sigma < 0.5:
        return img
    a = np.asarray(img, dtype=np.float32)
    noise = np.random.default_rng(rng.getrandbits(32)).normal(0, sigma, a.shape)
    return Image.fromarray(np.clip(a + noise, 0, 255).astype(np.uint8))


def render(args):
    rng = random.Random(args.seed)
    fonts = font_paths(args.kind)
    serifs = font_paths("title")
    conditions = config.COLLECTOR_CONDITIONS if args.kind == "collector" else config.TITLE_CONDITIONS
    lines = [l.rstrip("\n") for l in open(args.lines, encoding="utf-8") if l.strip()]
    os.makedirs(args.out, exist_ok=True)
    per_page = 100
    for start in range(0, len(lines), per_page):
        pages, boxes = [], []
        for i, text in enumerate(lines[start:start + per_page]):
            usable = [f for f in fonts if has_glyphs(f, text)]
            img = render_line(text, rng.choice(usable or fonts), rng, conditions, serif_path=rng.choice(serifs))
            pages.append(img)
            w, h = img.size
            boxes += [f"{ch} 0 0 {w} {h} {i}" for ch in ground_truth(text)]
            boxes.append(f"\t 0 0 {w} {h} {i}")
        stem = os.path.join(args.out, f"page-{start // per_page:04d}")
        pages[0].save(stem + ".tif", save_all=True, append_images=pages[1:], compression="tiff_lzw")
        with open(stem + ".box", "w", encoding="utf-8") as f:
            f.write("\n".join(boxes) + "\n")
        if args.samples and start == 0:
            for i, img in enumerate(pages[:args.samples]):
                img.save(os.path.join(args.out, f"sample-{i:02d}.png"))


def fixture(args):
    """Lines drawn plainly (no degradation), one under the other, as a test input: the collector
    font's first face, capitals 30 px tall, the letter spacing of the printed lines."""
    path = font_paths(args.kind)[0]
    probe = ImageFont.truetype(path, 100)
    size = int(round(100 * 30 / cap_height(probe)))
    rows = [runs_of_plain(text, path, size) for text in args.text]
    width = max(int(sum(run_width(r) for r in row)) for row in rows) + 2 * size
    ascent, descent = ImageFont.truetype(path, size).getmetrics()
    img = Image.new("L", (width, len(rows) * int((ascent + descent) * 1.2) + size), 235)
    draw = ImageDraw.Draw(img)
    for i, row in enumerate(rows):
        draw_runs(draw, row, size, size // 2 + ascent + i * int((ascent + descent) * 1.2), 20)
    img.save(args.out)


def runs_of_plain(text, font_path, size):
    font = ImageFont.truetype(font_path, size)
    runs = []
    for i, word in enumerate(text.split(" ")):
        if i:
            runs.append((GAP, font.getlength(" "), 0))
        runs.append((word, font, size * 0.1))
    return runs


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("text")
    t.add_argument("--catalog", required=True)
    t.add_argument("--kind", choices=["collector", "title"], default="collector")
    t.add_argument("--count", type=int, default=1000)
    t.add_argument("--seed", type=int, default=1)
    r = sub.add_parser("render")
    r.add_argument("--kind", choices=["collector", "title"], default="collector")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--samples", type=int, default=0, help="also write the first N lines as PNG")
    r.add_argument("lines")
    r.add_argument("out")
    f = sub.add_parser("fixture", help="draw lines plainly into one PNG (a test input)")
    f.add_argument("--kind", choices=["collector", "title"], default="collector")
    f.add_argument("out")
    f.add_argument("text", nargs="+")
    args = p.parse_args()
    {"text": make_text, "render": render, "fixture": fixture}[args.command](args)


if __name__ == "__main__":
    main()
