"""What the real-browser tests share: a server in a subprocess, headless Chromium at 360 px,
screenshots, waits and clicks, and the scorer's answer to compare the page's with.

The server runs on a free loopback port with a stand-in recognizer (tests/api/fakes.py,
page_fakes.py). Chromium is Debian's chromium + chromium-driver (scripts/install_browser.sh);
MJLENS_CHROMIUM and MJLENS_CHROMEDRIVER override the paths. With CI=true a missing browser
fails the run instead of skipping it. Set MJLENS_SCREENSHOTS=DIR to keep a 360-px-wide
screenshot of each page state (docs/screenshots/: with DIR=docs/screenshots, both files).
No font is added to the browser: tile faces are SVG and must show without any CJK font, and
the page's Chinese words come from its own font (api/static/fonts/page-cjk.woff).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("MJLENS_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("MJLENS_CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FLAGS_IN_CONTEXT = ("self_drawn", "last_tile", "last_of_wall", "kong_replacement", "robbing_kong")
CODES = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP")
WIDTH = 360


def require_browser() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if not missing:
        return
    message = f"{', '.join(missing)} missing: run scripts/install_browser.sh"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)  # CI must run this test, never skip it
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(factory: str, ready_path: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Runs `uvicorn FACTORY --factory` (FACTORY: module:function, or a function of
    tests.api.fakes) until the generator is closed; yields the base URL."""
    require_browser()
    port = _free_port()
    target = factory if ":" in factory else f"tests.api.fakes:{factory}"
    command = [sys.executable, "-m", "uvicorn", target, "--factory"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "error"]
    process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **(env or {})})
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + ready_path, timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the server did not come up (exit {process.poll()})")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        process.wait(10)


def start_browser() -> Iterator[Any]:
    """Headless Chromium as a phone 360 px wide (device pixel ratio 2), no font added."""
    require_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="mjlens-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.add_experimental_option(
        "mobileEmulation", {"deviceMetrics": {"width": WIDTH, "height": 800, "pixelRatio": 2}}
    )
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def shot(driver: Any, name: str) -> None:
    """Keeps what the phone shows as DIR/NAME.png where MJLENS_SCREENSHOTS=DIR: 360 px wide
    (the device's pixels halved), so the pictures stay small."""
    folder = os.environ.get("MJLENS_SCREENSHOTS")
    if not folder:
        return
    import cv2
    import numpy as np

    Path(folder).mkdir(parents=True, exist_ok=True)
    image = cv2.imdecode(np.frombuffer(driver.get_screenshot_as_png(), np.uint8), cv2.IMREAD_COLOR)
    height = round(image.shape[0] * WIDTH / image.shape[1])
    small = cv2.resize(image, (WIDTH, height), interpolation=cv2.INTER_AREA)
    path = Path(folder) / f"{name}.png"
    try:  # 128 colours: a third of the bytes, no difference a reader sees
        from PIL import Image

        rgb = Image.fromarray(cv2.cvtColor(small, cv2.COLOR_BGR2RGB))
        rgb.quantize(128, Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
            path, optimize=True
        )
    except ImportError:
        cv2.imwrite(str(path), small, [cv2.IMWRITE_PNG_COMPRESSION, 9])


def wait(driver: Any, condition: Any, timeout: float = 20) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d))


def assert_no_script_errors(driver: Any, answered: str | None = None) -> None:
    """No SEVERE console entry but, where `answered` (a status) is given, the network's own
    entry for the request the server answered so."""
    errors = [
        e["message"]
        for e in driver.get_log("browser")
        if e["level"] == "SEVERE"
        and not (answered and e["source"] == "network" and f"status of {answered}" in e["message"])
    ]
    assert not errors, errors


def total(driver: Any) -> str:
    return str(driver.find_element("id", "total-points").text).strip()


def click(driver: Any, css: str) -> None:
    element = driver.find_element("css selector", css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def expected_total(hand: dict[str, Any], ruleset: str = "mcr") -> str:
    from scoring import score

    result = score(hand, ruleset).to_json()
    return str(result["total"]) if result["valid"] else "✗"


def page_hand(truth: dict[str, Any]) -> dict[str, Any]:
    """The sample's hand as the page scores it: the photo cannot show the win context, so the
    page sends its own (the defaults here: East/East, no flags) and flowers as tiles or 0."""
    hand = json.loads(json.dumps(truth))
    hand.update(seat_wind="E", prevalent_wind="E")
    hand.update({flag: False for flag in FLAGS_IN_CONTEXT})
    hand["flowers"] = hand["flowers"] if hand["flowers"] else 0
    return hand


def sample_as(tmp_path: Path, suffix: str, width: int | None = None) -> Path:
    """The bundled sample photo written as another format (and `width` px wide if given)."""
    import cv2

    image = cv2.imread(str(ROOT / "api" / "static" / "sample.jpg"))
    if width is not None:
        height = round(image.shape[0] * width / image.shape[1])
        image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    path = tmp_path / f"sample-{width or 'full'}{suffix}"
    assert cv2.imwrite(str(path), image)
    return path


def pick_photo(driver: Any, path: Path) -> None:
    driver.get_log("browser")  # drop what earlier tests left: they are checked on their own
    driver.find_element("id", "photo-input").send_keys(str(path))


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether two rectangles (x1, y1, x2, y2) share more than half a pixel each way."""
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def fonts_drawing(driver: Any, css: str) -> dict[str, int]:
    """The fonts Chromium drew the first element matching `css` with (its text included), as
    family name to glyph count: DevTools' CSS.getPlatformFontsForNode. A web font counts
    once it has loaded, so the caller waits for `document.fonts.ready` first."""
    driver.execute_cdp_cmd("DOM.enable", {})
    driver.execute_cdp_cmd("CSS.enable", {})
    root = driver.execute_cdp_cmd("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": css})
    fonts = driver.execute_cdp_cmd("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})
    return {f["familyName"]: int(f["glyphCount"]) for f in fonts["fonts"]}


def wait_fonts(driver: Any) -> None:
    driver.set_script_timeout(30)
    driver.execute_async_script(
        "document.fonts.ready.then(() => arguments[arguments.length - 1]())"
    )
