#!/usr/bin/env python3
"""Measures the first load of `cardscan serve`'s collection page with a large collection, in a
real headless Chromium (the issue's target: <= 300 ms with 10,000 entries, loopback, release build).

  scripts/serve-bench.py CATALOG [--entries 10000] [--runs 7] [--binary .build/release/cardscan]

Builds a temporary collection of N entries (distinct printings of CATALOG, English, imported from a
Moxfield CSV through `cardscan collection import`), starts `cardscan serve --port 0`, and loads
/#collection N times in a fresh tab each: the time from navigation start until the first page of
entries is drawn, and until the totals (with their value) are drawn. Also times the API calls alone.
Prints medians; a report, not a test.
"""
import argparse
import csv
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
from test_pages import Server, browser, wait  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("catalog")
    ap.add_argument("--entries", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--binary", default=".build/release/cardscan")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="cardscan-serve-bench-")
    home = os.path.join(tmp, "home")
    try:
        db = sqlite3.connect("file:%s?mode=ro" % os.path.abspath(a.catalog), uri=True)
        rows = db.execute("SELECT name, set_code, collector_number FROM printing WHERE lang = 'en' AND paper = 1 "
                          "ORDER BY (price_usd IS NULL), set_code, collector_number LIMIT ?", (a.entries,)).fetchall()
        path = os.path.join(tmp, "moxfield.csv")
        conditions = ["Near Mint", "Lightly Played", "Moderately Played"]
        with open(path, "w", newline="") as f:
            w = csv.writer(f, quoting=csv.QUOTE_ALL)
            w.writerow(["Count", "Tradelist Count", "Name", "Edition", "Condition", "Language", "Foil", "Tags", "Last Modified",
                        "Collector Number", "Alter", "Proxy", "Purchase Price"])
            for i, (name, s, n) in enumerate(rows):
                w.writerow([1 + i % 3, 0, name, s, conditions[i % 3], "English", "foil" if i % 10 == 0 else "", "", "", n, "False", "False", ""])
        env = dict(os.environ, CARDSCAN_HOME=home)
        imp = subprocess.run([a.binary, "collection", "import", path, "--catalog", a.catalog], env=env, capture_output=True, text=True)
        if imp.returncode not in (0, 1):
            sys.exit("import failed: " + imp.stderr)
        print("collection: %s" % ((imp.stderr.strip() or imp.stdout.strip()).splitlines() or ["?"])[-1])
        server = Server(a.binary, home, ["--catalog", a.catalog])
        try:
            def timed(p):
                t = time.perf_counter()
                urllib.request.urlopen(server.base + p).read()
                return (time.perf_counter() - t) * 1000
            for p in ("/", "/api/entries?limit=100&offset=0&", "/api/totals?", "/api/review", "/api/pools"):
                times = [timed(p) for _ in range(a.runs)]
                print("GET %-32s median %7.1f ms (min %.1f, max %.1f)" % (p, statistics.median(times), min(times), max(times)))
            d = browser()
            try:
                table, totals = [], []
                for _ in range(a.runs):
                    d.get("about:blank")
                    d.get(server.base + "/#collection")
                    # The page notes when it drew them (performance.now(): ms since navigation start).
                    t1 = wait(d, lambda d: d.execute_script("return window.__rowsDrawnAt"), 30, "rows")
                    t2 = wait(d, lambda d: d.execute_script("return window.__totalsDrawnAt"), 30, "totals")
                    assert len(d.find_elements(By.CSS_SELECTOR, "#entries tbody tr")) == 100
                    table.append(t1); totals.append(t2)
                print("page /#collection, %d entries: first 100 rows drawn median %.0f ms (min %.0f, max %.0f); totals drawn median %.0f ms"
                      % (a.entries, statistics.median(table), min(table), max(table), statistics.median(totals)))
                print("totals line: " + d.find_element(By.ID, "totals").text.splitlines()[0])
            finally:
                d.quit()
        finally:
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
