#!/usr/bin/env python3
"""Browser tests of `cardscan serve` in a real headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium): import the fixture photos from the page, review every
pending item by keyboard only, edit one entry, check the totals and a CSV export. A failing test
saves a screenshot (and the page's HTML) under out/browser-failures/.

Usage: Tests/Browser/test_pages.py [path/to/cardscan]   (default: .build/debug/cardscan)
With --screenshots DIR it also writes the README's screenshots (review.png, collection.png).
Prints 'N passed, N failed' last; exits 1 when any test failed.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAILURES = os.path.join(ROOT, "out", "browser-failures")


def photo_folder(dest):
    """The CLI tests' fixture folder: 5 identifiable photos, 3 ambiguous copies, 1 broken file."""
    os.makedirs(dest)
    src = os.path.join(ROOT, "Fixtures", "synthetic")
    plan = [("broodhunter_wurm_flat.png", "wurm.png", None), ("broodhunter_wurm_flat.png", "wurm-copy.png", b"copy-1"),
            ("carnage_tyrant_flat.png", "tyrant.png", None), ("gurmag_drowner_flat.png", "drowner.png", None),
            ("sheoldred_the_apocalypse_flat.png", "sheoldred.png", None), ("counterspell_flat.png", "counter-a.png", None),
            ("counterspell_flat.png", "counter-b.png", b"copy-b"), ("counterspell_flat.png", "counter-c.png", b"copy-c")]
    for source, name, suffix in plan:
        data = open(os.path.join(src, source), "rb").read() + (suffix or b"")
        open(os.path.join(dest, name), "wb").write(data)
    open(os.path.join(dest, "broken.jpg"), "wb").write(b"not an image")
    return dest


class Server:
    def __init__(self, binary, home, extra=()):
        env = dict(os.environ, CARDSCAN_HOME=home)
        self.proc = subprocess.Popen([binary, "serve", "--port", "0", "--jobs", "1", *extra], env=env, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if "http://" not in line:
            raise RuntimeError("cardscan serve printed no address: %r" % line)
        self.base = line[line.index("http://"):].split()[0].rstrip("/")

    def get(self, path):
        with urllib.request.urlopen(self.base + path) as r:
            body = r.read()
            return json.loads(body) if "json" in r.headers.get("Content-Type", "") else body.decode()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000", "--disable-gpu"):
        options.add_argument(arg)
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(service=service, options=options)


def text(driver, element_id):
    """An element's text read in the page (no stale handle when the page redraws it meanwhile)."""
    return driver.execute_script("const e = document.getElementById(arguments[0]); return e ? e.textContent : null", element_id)


def keys(driver, *sequence):
    """Key presses sent to the page itself (as a person typing with nothing focused)."""
    body = driver.find_element(By.TAG_NAME, "body")
    for k in sequence:
        body.send_keys(k)


def wait(driver, condition, timeout=60, what="condition"):
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d), message=what)


def test_import_review_edit(binary, driver, shots):
    tmp = tempfile.mkdtemp(prefix="cardscan-browser-")
    server = Server(binary, os.path.join(tmp, "home"))
    try:
        photos = photo_folder(os.path.join(tmp, "photos"))
        driver.get(server.base + "/#import")
        marker = driver.execute_script("window.__noReload = 1; return window.__noReload")
        driver.find_element(By.ID, "import-path").send_keys(photos)
        driver.find_element(By.ID, "import-start").click()
        wait(driver, lambda d: text(d, "import-status").startswith("done"), 180, "import done")
        status = text(driver, "import-status")
        assert "9 of 9 photos" in status and "5 added, 3 to review, 1 failed" in status, status

        # Review every pending item by keyboard only: the first accepted as its second candidate,
        # then j/k to move, space to select, X to reject the selection.
        driver.get(server.base + "/#review")
        driver.execute_script("window.__noReload = 1")
        wait(driver, lambda d: text(d, "review-count") == "3", what="3 pending")
        wait(driver, lambda d: d.execute_script("const i = document.getElementById('crop'); return i.complete && i.naturalWidth > 0"),
             what="crop shown")
        crop = driver.execute_script("const i = document.getElementById('crop'); return [i.naturalWidth, i.naturalHeight]")
        assert crop[1] > crop[0] > 100, crop  # a card, upright
        if shots:
            driver.save_screenshot(os.path.join(shots, "review.png"))
        pressed = 0
        keys(driver, "2"); pressed += 1  # the first item: its second candidate
        wait(driver, lambda d: text(d, "review-count") == "2", what="accepted")
        # The second: another printing found by set and number, typed into the search.
        keys(driver, "/"); pressed += 1
        driver.switch_to.active_element.send_keys("lea 54", Keys.ENTER); pressed += 7
        wait(driver, lambda d: "Search results" in (text(d, "candidates-title") or ""), what="search results")
        first = driver.find_element(By.CSS_SELECTOR, "#candidates .candidate").text
        assert "LEA #54" in first, first
        keys(driver, "1"); pressed += 1
        wait(driver, lambda d: text(d, "review-count") == "1", what="accepted from search")
        # The third: moved to, selected, rejected as a selection.
        keys(driver, "j", "k", " ", "X"); pressed += 4
        wait(driver, lambda d: text(d, "review-count") == "0", what="all reviewed")
        assert driver.execute_script("return window.__noReload") == 1, "the page reloaded"
        review = server.get("/api/review?state=all")
        assert sorted(i["state"] for i in review) == ["accepted", "accepted", "rejected"], review
        lea = [e for e in server.get("/api/entries?set=lea")["entries"]]
        assert len(lea) == 1 and lea[0]["collector_number"] == "54" and lea[0]["origin"] == "reviewed", lea
        print("  reviewed 3 items with %d key presses, no reload" % pressed)

        # Collection: filter, edit one entry's quantity and condition, check totals and export.
        driver.get(server.base + "/#collection")
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#entries tbody tr")) == 7, what="7 entries")
        wait(driver, lambda d: text(d, "total-cards") == "7", what="totals 7")
        name = driver.find_element(By.ID, "filter-name")
        name.send_keys("tyrant")
        # The filter applies 150 ms after the last key; the rows are drawn anew then.
        time.sleep(0.6)
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#entries tbody tr")) == 1, what="filtered")
        row = driver.find_element(By.CSS_SELECTOR, "#entries tbody tr")
        qty = row.find_element(By.CSS_SELECTOR, ".qty")
        qty.send_keys(Keys.CONTROL, "a")
        qty.send_keys("4", Keys.TAB)
        wait(driver, lambda d: text(d, "total-cards") == "4", what="totals after edit")
        condition = row.find_element(By.CSS_SELECTOR, ".condition")
        condition.send_keys("LP")
        driver.execute_script("arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", condition)
        wait(driver, lambda d: server.get("/api/entries?name=tyrant")["entries"][0]["condition"] == "LP", what="condition saved")
        name.clear(); name.send_keys(" ")
        name.send_keys(Keys.BACKSPACE)
        wait(driver, lambda d: text(d, "total-cards") == "10", what="totals 10")
        sets = [s.text for s in driver.find_elements(By.CSS_SELECTOR, ".set-total")]
        assert len(sets) >= 3, sets
        if shots:
            driver.save_screenshot(os.path.join(shots, "collection.png"))
        export = server.get("/api/export?format=moxfield")
        lines = [l for l in export.splitlines() if "Carnage Tyrant" in l]
        assert len(lines) == 1 and (lines[0].startswith('"4"') or lines[0].startswith("4,")), export
        cli = subprocess.run([binary, "collection", "export", "--format", "moxfield"], env=dict(os.environ, CARDSCAN_HOME=os.path.join(tmp, "home")),
                             capture_output=True, text=True)
        assert cli.stdout == export, (cli.stdout, export)
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def test_keyboard_budget(binary, driver, shots):
    """50 pending items reviewed with at most 100 key presses and no reload."""
    tmp = tempfile.mkdtemp(prefix="cardscan-browser-")
    home = os.path.join(tmp, "home")
    try:
        photos = os.path.join(tmp, "photos")
        os.makedirs(photos)
        src = open(os.path.join(ROOT, "Fixtures", "synthetic", "counterspell_flat.png"), "rb").read()
        for i in range(50):  # distinct bytes: each its own photo, each ambiguous
            open(os.path.join(photos, "c%02d.png" % i), "wb").write(src + b"copy-%d" % i)
        env = dict(os.environ, CARDSCAN_HOME=home)
        subprocess.run([binary, "import", photos, "--jobs", "2", "--quiet"], env=env, capture_output=True)
        server = Server(binary, home)
        try:
            driver.get(server.base + "/#review")
            driver.execute_script("window.__noReload = 1")
            wait(driver, lambda d: text(d, "review-count") == "50", what="50 pending")
            pressed = 0
            for i in range(50):
                before = 50 - i
                keys(driver, "1" if i % 2 == 0 else "x"); pressed += 1
                wait(driver, lambda d: text(d, "review-count") == str(before - 1), what="item %d" % i)
            assert pressed <= 100, pressed
            assert driver.execute_script("return window.__noReload") == 1, "the page reloaded"
            states = [i["state"] for i in server.get("/api/review?state=all")]
            assert states.count("accepted") == 25 and states.count("rejected") == 25, states
            print("  reviewed 50 items with %d key presses, no reload" % pressed)
        finally:
            server.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    args = sys.argv[1:]
    shots = None
    if "--screenshots" in args:
        i = args.index("--screenshots"); shots = args[i + 1]; del args[i:i + 2]
        os.makedirs(shots, exist_ok=True)
    binary = os.path.abspath(args[0] if args else os.path.join(ROOT, ".build", "debug", "cardscan"))
    passed = failed = 0
    driver = browser()
    try:
        for test in (test_import_review_edit, test_keyboard_budget):
            start = time.time()
            try:
                test(binary, driver, shots)
                passed += 1
                print("PASS %s (%.1f s)" % (test.__name__, time.time() - start))
            except Exception:
                failed += 1
                os.makedirs(FAILURES, exist_ok=True)
                shot = os.path.join(FAILURES, test.__name__ + ".png")
                try:
                    driver.save_screenshot(shot)
                    open(shot[:-4] + ".html", "w").write(driver.page_source)
                except Exception:
                    pass
                print("FAIL %s (screenshot: %s)" % (test.__name__, shot))
                traceback.print_exc()
    finally:
        driver.quit()
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
