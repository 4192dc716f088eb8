#!/usr/bin/env python3
"""The README's screenshots of `cardscan serve`, taken in headless Chromium.

  scripts/serve-screenshots.py DATA_DIR CATALOG OUT_DIR [--binary .build/release/cardscan]

DATA_DIR holds a collection made by `cardscan import` (e.g. of some of ../shared/photos); writes
OUT_DIR/serve-review.png and OUT_DIR/serve-collection.png.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
from test_pages import Server, browser, wait  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("home"); ap.add_argument("catalog"); ap.add_argument("out")
ap.add_argument("--binary", default=".build/release/cardscan")
a = ap.parse_args()
os.makedirs(a.out, exist_ok=True)
server = Server(os.path.abspath(a.binary), a.home, ["--catalog", a.catalog])
d = browser()
try:
    d.get(server.base + "/#review")
    wait(d, lambda d: d.execute_script("const i = document.getElementById('crop'); return i.complete && i.naturalWidth > 0"), 60, "crop")
    d.save_screenshot(os.path.join(a.out, "serve-review.png"))
    d.get(server.base + "/#collection")
    wait(d, lambda d: d.execute_script("return window.__totalsDrawnAt"), 60, "totals")
    wait(d, lambda d: d.execute_script("return [...document.querySelectorAll('#entries img')].every(i => i.complete)"), 60, "crops")
    d.save_screenshot(os.path.join(a.out, "serve-collection.png"))
finally:
    d.quit()
    server.stop()
