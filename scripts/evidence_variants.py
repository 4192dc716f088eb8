#!/usr/bin/env python3
"""Takes evidence away from a photo of one card, for scripts/robustness.sh.

    evidence_variants.py VARIANT PHOTO QUAD_JSON OUT

VARIANT is one of
  notitle   the title bar (card v 0.03-0.135, u 0.04-0.96, inside the border) painted over in
            the colour of the bar itself (its median: the bar, not the letters)
  nobottom  the card's bottom 8% (v 0.92 and below, to just past the edge) painted over in the
            colour of the table beside it, as if the photo had cut it off
  textonly  everything of the card but its text box (v 0.545-0.915, u 0.06-0.94) painted over in
            the card's median colour
  glare     a sleeve's glare over the title: an ellipse (centre u 0.38, v 0.075; half-axes 0.30 of
            the card's width, 0.07 of its height) blended towards white, 90% at its middle and
            fading out over its outer part, so the title's ends may survive (a partial title)
  cuttop    the photo cut through the card's title: of the photo's four sides the one the card's
            top faces is moved in to the title's middle (card v 0.06 at u 0.5), so the card runs
            into the photo's edge with the upper half of its title gone
QUAD_JSON is the card's quad as `cardscan read --json` gives it ({"corners": [{x, y} x 4]}, TL,
TR, BR, BL of the upright card in photo pixels). Card coordinates u (right) and v (down) run 0-1
over the card; the quad's perspective is followed (a homography from the unit square).
"""
import json
import statistics
import sys

import math

from PIL import Image, ImageDraw, ImageFilter


def homography(corners):
    """Maps (u, v) in the unit square to the quad (Heckbert's square-to-quad)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
    dx1, dx2, dx3 = x1 - x2, x3 - x2, x0 - x1 + x2 - x3
    dy1, dy2, dy3 = y1 - y2, y3 - y2, y0 - y1 + y2 - y3
    if abs(dx3) < 1e-9 and abs(dy3) < 1e-9:
        g = h = 0.0
        a, b, c = x1 - x0, x3 - x0, x0
        d, e, f = y1 - y0, y3 - y0, y0
    else:
        den = dx1 * dy2 - dx2 * dy1
        g = (dx3 * dy2 - dx2 * dy3) / den
        h = (dx1 * dy3 - dx3 * dy1) / den
        a, b, c = x1 - x0 + g * x1, x3 - x0 + h * x3, x0
        d, e, f = y1 - y0 + g * y1, y3 - y0 + h * y3, y0

    def to_photo(u, v):
        w = g * u + h * v + 1
        return ((a * u + b * v + c) / w, (d * u + e * v + f) / w)
    return to_photo


def polygon(to_photo, u0, v0, u1, v1, steps=8):
    """The card region [u0,u1] x [v0,v1] as a photo polygon (edges subdivided to follow perspective)."""
    pts = [(u0 + (u1 - u0) * i / steps, v0) for i in range(steps + 1)]
    pts += [(u1, v0 + (v1 - v0) * i / steps) for i in range(1, steps + 1)]
    pts += [(u1 - (u1 - u0) * i / steps, v1) for i in range(1, steps + 1)]
    pts += [(u0, v1 - (v1 - v0) * i / steps) for i in range(1, steps)]
    return [to_photo(u, v) for u, v in pts]


def median_colour(image, poly):
    """Median of each channel over the pixels inside `poly`."""
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).polygon(poly, fill=255)
    box = mask.getbbox()
    if box is None:
        return (128, 128, 128)
    region, inside = image.crop(box), mask.crop(box)
    data = (lambda im: im.get_flattened_data()) if hasattr(region, "get_flattened_data") else (lambda im: im.getdata())
    pixels = [p for p, m in zip(data(region), data(inside)) if m]
    step = max(1, len(pixels) // 20000)
    sample = pixels[::step]
    return tuple(int(statistics.median(p[c] for p in sample)) for c in range(3))


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    variant, photo, quad_json, out = argv
    corners = [(p["x"], p["y"]) for p in json.loads(quad_json)["corners"]]
    image = Image.open(photo).convert("RGB")
    draw = ImageDraw.Draw(image)
    to_photo = homography(corners)
    if variant == "notitle":
        band = polygon(to_photo, 0.04, 0.03, 0.96, 0.135)
        draw.polygon(band, fill=median_colour(image, band))
    elif variant == "nobottom":
        beside = polygon(to_photo, 1.02, 0.85, 1.10, 1.0)  # the table right of the card's bottom
        draw.polygon(polygon(to_photo, -0.03, 0.92, 1.03, 1.04), fill=median_colour(image, beside))
    elif variant == "textonly":
        colour = median_colour(image, polygon(to_photo, 0, 0, 1, 1))
        for u0, v0, u1, v1 in [(-0.01, -0.01, 1.01, 0.545), (-0.01, 0.915, 1.01, 1.01), (-0.01, 0.545, 0.06, 0.915), (0.94, 0.545, 1.01, 0.915)]:
            draw.polygon(polygon(to_photo, u0, v0, u1, v1), fill=colour)
    elif variant == "glare":
        cu, cv, ru, rv = 0.36, 0.085, 0.26, 0.065
        ellipse = [to_photo(cu + ru * math.cos(2 * math.pi * i / 64), cv + rv * math.sin(2 * math.pi * i / 64)) for i in range(64)]
        mask = Image.new("L", image.size, 0)
        ImageDraw.Draw(mask).polygon(ellipse, fill=255)
        # The fade: a blur of a sixth of the ellipse's height in the photo.
        (_, top), (_, bottom) = to_photo(cu, cv - rv), to_photo(cu, cv + rv)
        mask = mask.filter(ImageFilter.GaussianBlur(max(1.0, abs(bottom - top) / 6)))
        image = Image.composite(Image.new("RGB", image.size, (255, 255, 255)), image, mask)
    elif variant == "cuttop":
        (tx, ty), (bx, by) = to_photo(0.5, 0.0), to_photo(0.5, 1.0)
        cx, cy = to_photo(0.5, 0.06)
        # (Within the photo: a card whose top lies outside it keeps a strip at least.)
        cx, cy = min(max(cx, 1), image.width - 1), min(max(cy, 1), image.height - 1)
        up = (tx - bx, ty - by)
        if abs(up[1]) >= abs(up[0]):
            box = (0, int(cy), image.width, image.height) if up[1] < 0 else (0, 0, image.width, int(cy))
        else:
            box = (int(cx), 0, image.width, image.height) if up[0] < 0 else (0, 0, int(cx), image.height)
        image = image.crop(box)
    else:
        sys.exit(f"evidence_variants: unknown variant '{variant}'")
    image.save(out, quality=95)


if __name__ == "__main__":
    main(sys.argv[1:])
