#!/usr/bin/env python3
"""Prints ImageMagick `-distort Perspective` arguments that show a photo as if the table (and the
card on it) had been seen at an angle: the plane of the photo turned by DEGREES about a line
through the image centre, seen by a phone camera (focal length about 26 mm equivalent: 0.6 of the
image diagonal, principal point at the centre). The centre stays put; the far side shrinks and
the near side grows, as in a photo taken at that angle, zoomed so the whole photo stays in the
frame. Unlike an arbitrary keystone, the perspective is that of a real camera, which is what the
reader's geometry assumes.

Usage: camera_turn.py WIDTH HEIGHT AXIS DEGREES
  AXIS x: the top of the photo turned away (its far edge, at the top, gets shorter);
       y: the right side turned away.
"""
import math
import sys


def distort_args(w: float, h: float, axis: str, degrees: float) -> str:
    phone = 0.6 * math.hypot(w, h)
    cx, cy = w / 2, h / 2
    s, c = math.sin(math.radians(degrees)), math.cos(math.radians(degrees))

    def project(x: float, y: float, f: float):
        u, v = x - cx, y - cy
        if axis == "x":  # a plane point at height v comes nearer (v > 0) or recedes (v < 0)
            d = 1 - v * s / f
            return u / d, v * c / d
        d = 1 - u * s / f
        return u * c / d, v / d

    # The near side grows past the frame: zoom out about the centre until all of the photo stays
    # in it (a photographer frames the card), seen through a lens that much longer, so that the
    # photo keeps a phone's field of view (zooming out alone would widen it).
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    zoom = 1.0
    for _ in range(50):
        ends = [project(x, y, phone / zoom) for x, y in src]
        zoom = min(min((w / 2) / max(abs(u), 1e-9), (h / 2) / max(abs(v), 1e-9)) for u, v in ends)
    ends = [(cx + u * zoom, cy + v * zoom) for u, v in (project(x, y, phone / zoom) for x, y in src)]
    return ",".join(f"{a:.1f},{b:.1f},{p:.1f},{q:.1f}" for (a, b), (p, q) in zip(src, ends))


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[3] not in ("x", "y"):
        sys.exit(__doc__)
    print(distort_args(float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], float(sys.argv[4])))
