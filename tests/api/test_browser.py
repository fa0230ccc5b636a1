"""The phone page in a real headless Chromium (Debian's chromium + chromium-driver, selenium).

The server runs in a subprocess on a free loopback port with the replaying recognizer (the
sample's true tiles; real models are tested in test_real_models.py), so what is tested here
is the page: load the sample, see the boxes, correct a tile, see the score change; and the
manual mode, which must work with no recognizer at all.
Set MJLENS_SCREENSHOTS=DIR to keep 360x800 screenshots of each step; MJLENS_CHROMIUM and
MJLENS_CHROMEDRIVER override the Debian paths. With CI=true a missing browser fails the run.
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

from tests.api.fakes import SAMPLE_TRUTH

pytestmark = pytest.mark.browser

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


def _require_browser() -> None:
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


def _serve(factory: str, ready_path: str, env: dict[str, str] | None = None) -> Iterator[str]:
    _require_browser()
    port = _free_port()
    command = [sys.executable, "-m", "uvicorn", f"tests.api.fakes:{factory}", "--factory"]
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


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from _serve("create_replay_app", "readyz")


# Over the sample as PNG (1.3 MB), over the same drawn as JPEG (about 150 KB).
SMALL_PHOTO_CAP = 600_000


@pytest.fixture(scope="module")
def small_cap_server() -> Iterator[str]:
    yield from _serve("create_replay_app", "readyz", {"MJLENS_PHOTO_BYTES": str(SMALL_PHOTO_CAP)})


@pytest.fixture(scope="module")
def flower_doubt_server() -> Iterator[str]:
    yield from _serve("create_flower_doubt_app", "readyz")


@pytest.fixture(scope="module")
def waiting_server() -> Iterator[str]:
    yield from _serve("create_waiting_app", "readyz")


@pytest.fixture(scope="module")
def no_models_server() -> Iterator[str]:
    yield from _serve("create_no_models_app", "healthz")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _require_browser()
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
        "mobileEmulation", {"deviceMetrics": {"width": 360, "height": 800, "pixelRatio": 2}}
    )
    env = dict(os.environ)
    fonts = ROOT / ".cache" / "art" / "fonts-cjk" / "usr" / "share" / "fonts"
    if fonts.is_dir():  # only for legible screenshots: Chinese glyphs instead of boxes
        conf = Path(profile) / "fonts.conf"
        conf.write_text(
            '<?xml version="1.0"?><fontconfig><include ignore_missing="yes">'
            f"/etc/fonts/fonts.conf</include><dir>{fonts}</dir></fontconfig>"
        )
        env["FONTCONFIG_FILE"] = str(conf)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER, env=env))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _shot(driver: Any, name: str) -> None:
    folder = os.environ.get("MJLENS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))


def _wait(driver: Any, condition: Any, timeout: float = 20) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d))


def _assert_no_script_errors(driver: Any, answered: str | None = None) -> None:
    """No SEVERE console entry but, where `answered` (a status) is given, the network's own
    entry for the request the server answered so."""
    errors = [
        e["message"]
        for e in driver.get_log("browser")
        if e["level"] == "SEVERE"
        and not (answered and e["source"] == "network" and f"status of {answered}" in e["message"])
    ]
    assert not errors, errors


def _total(driver: Any) -> str:
    return str(driver.find_element("id", "total-points").text).strip()


def _click(driver: Any, css: str) -> None:
    element = driver.find_element("css selector", css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def _expected_total(hand: dict[str, Any]) -> str:
    from scoring import score

    result = score(hand).to_json()
    return str(result["total"]) if result["valid"] else "✗"


def _page_hand(truth: dict[str, Any]) -> dict[str, Any]:
    """The sample's hand as the page scores it: the photo cannot show the win context, so the
    page sends its own (the defaults here: East/East, no flags) and flowers as tiles or 0."""
    hand = json.loads(json.dumps(truth))
    hand.update(seat_wind="E", prevalent_wind="E")
    hand.update({flag: False for flag in FLAGS_IN_CONTEXT})
    hand["flowers"] = hand["flowers"] if hand["flowers"] else 0
    return hand


def test_sample_photo_then_correct_a_tile(server: str, browser: Any) -> None:
    browser.get(server)
    _shot(browser, "1-start")
    _click(browser, "#sample")
    _wait(
        browser,
        lambda d: _total(d) not in ("", "—") and len(d.find_elements("css selector", ".box")) > 0,
    )
    _shot(browser, "2-sample-read")
    boxes = browser.find_elements("css selector", "#boxes .box")
    assert len(boxes) == len(SAMPLE_TRUTH["tiles"])
    before = _total(browser)
    assert before == _expected_total(_page_hand(SAMPLE_TRUTH["hand"]))

    # Correct the winning tile to a code that changes the score (a valid hand if one exists).
    hand = _page_hand(SAMPLE_TRUTH["hand"])
    choices = [c for c in CODES if c != hand["winning_tile"]]
    new_code = next(
        (c for c in choices if _expected_total({**hand, "winning_tile": c}) not in (before, "✗")),
        next(c for c in choices if _expected_total({**hand, "winning_tile": c}) != before),
    )
    _click(browser, "#boxes .box.winning")
    _wait(browser, lambda d: d.find_element("id", "picker").is_displayed())
    _shot(browser, "3-picker")
    _click(browser, f'#picker-faces .tile[data-code="{new_code}"]')
    expected = _expected_total({**hand, "winning_tile": new_code})
    _wait(browser, lambda d: _total(d) == expected)
    _shot(browser, "4-corrected")
    assert _total(browser) != before
    corrections = browser.execute_script(
        "return document.getElementById('sheet-corrections').textContent"
    )
    assert f"{hand['winning_tile']} → {new_code}" in corrections
    # The corrected box is drawn as corrected and labelled with its new code.
    box = browser.find_element("css selector", "#boxes .box.winning")
    assert "corrected" in box.get_attribute("class") and box.text == new_code
    _assert_no_script_errors(browser)


def test_a_doubt_only_over_which_flower_says_the_score_stands(
    flower_doubt_server: str, browser: Any
) -> None:
    """The real-face wins were flagged about a fifth of the time only over which flower a
    flower tile is, which no score depends on: the page says the score stands, not "check"."""
    browser.get(flower_doubt_server)
    _click(browser, "#sample")
    _wait(browser, lambda d: _total(d) not in ("", "—"))
    status = browser.find_element("id", "status")
    assert "the score stands" in status.text and "check" not in status.text
    assert status.get_attribute("class") == "ok"
    _assert_no_script_errors(browser)


def _sample_as(tmp_path: Path, suffix: str) -> Path:
    import cv2

    image = cv2.imread(str(ROOT / "api" / "static" / "sample.jpg"))
    path = tmp_path / f"sample{suffix}"
    assert cv2.imwrite(str(path), image)
    return path


def _pick_photo(driver: Any, path: Path) -> None:
    driver.get_log("browser")  # drop what earlier tests left: they are checked on their own
    driver.find_element("id", "photo-input").send_keys(str(path))


def _sent_type(driver: Any) -> str:
    """The type of the photo the page shows, which is the one it sent."""
    return str(driver.execute_script("return state.photo.type"))


def _read_all_boxes(driver: Any) -> None:
    _wait(
        driver,
        lambda d: len(d.find_elements("css selector", "#boxes .box")) == len(SAMPLE_TRUTH["tiles"]),
    )


def test_a_photo_the_server_does_not_read_is_sent_as_a_jpeg(
    server: str, browser: Any, tmp_path: Path
) -> None:
    """A phone may hand the page a format the server refuses (HEIC, AVIF; here BMP, which
    this Chromium decodes): the page draws it as a JPEG and sends that instead."""
    browser.get(server)
    _pick_photo(browser, _sample_as(tmp_path, ".bmp"))
    _read_all_boxes(browser)
    assert _sent_type(browser) == "image/jpeg"
    assert browser.find_element("id", "status").get_attribute("class") != "error"
    want = _expected_total(_page_hand(SAMPLE_TRUTH["hand"]))
    _wait(browser, lambda d: _total(d) == want)
    _assert_no_script_errors(browser)


def test_a_photo_over_the_cap_is_sent_again_as_a_jpeg(
    small_cap_server: str, browser: Any, tmp_path: Path
) -> None:
    png = _sample_as(tmp_path, ".png")
    assert png.stat().st_size > SMALL_PHOTO_CAP
    browser.get(small_cap_server)
    _pick_photo(browser, png)
    _read_all_boxes(browser)
    assert _sent_type(browser) == "image/jpeg"
    _assert_no_script_errors(browser, answered="413")


def test_a_photo_neither_can_read_shows_the_servers_reason(
    server: str, browser: Any, tmp_path: Path
) -> None:
    heic = tmp_path / "table.heic"
    heic.write_bytes(b"\x00\x00\x00\x18ftypheic" + bytes(64))
    browser.get(server)
    _pick_photo(browser, heic)
    status = _wait(
        browser,
        lambda d: (
            d.find_element("id", "status").text
            if d.find_element("id", "status").get_attribute("class") == "error"
            else None
        ),
    )
    assert "HEIC/AVIF photos are not supported" in status
    _assert_no_script_errors(browser, answered="415")


def test_manual_entry_with_the_picker(server: str, browser: Any) -> None:
    browser.get(server)
    _click(browser, "#manual")
    _wait(browser, lambda d: d.find_element("id", "picker").is_displayed())
    tiles = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "4p", "5p", "5p"]
    for code in tiles:
        _click(browser, f'#picker-faces .tile[data-code="{code}"]')
    hand = {"melds": [], "concealed": tiles[:13], "winning_tile": "5p", "flowers": 0}
    expected = _expected_total(hand)
    assert expected != "✗"
    _wait(browser, lambda d: _total(d) == expected)
    _shot(browser, "5-manual")

    # Tap the 4p in the hand, make it 1p: 123p + 55p, still a win, another score.
    _click(browser, '#hand .tile[data-code="4p"]')
    _click(browser, '#picker-faces .tile[data-code="1p"]')
    hand["concealed"] = [*tiles[:9], "2p", "3p", "1p", "5p"]
    changed = _expected_total(hand)
    _wait(browser, lambda d: _total(d) == changed)
    assert changed != expected

    # Chinese: the fan table leads with the Chinese names.
    _click(browser, "#lang")
    first = browser.find_element("css selector", "#fans tbody .first").text
    assert any("\u4e00" <= ch <= "\u9fff" for ch in first), first
    _shot(browser, "6-chinese")
    _assert_no_script_errors(browser)


@pytest.mark.parametrize(
    "notation",
    ["[567m,2][999s,3][EEEE]123pCC", "[CCC][FFF,1]PP123m78s9s", "19m19p19sESWNCFPP"],
    ids=["melds-and-kong", "dragons", "thirteen-orphans"],
)
def test_typed_notation_scores_like_the_python_parser(
    server: str, browser: Any, notation: str
) -> None:
    from scoring import parse_notation, score

    expected = score(parse_notation(notation)).to_json()
    browser.get(server)
    _click(browser, "#manual")
    _click(browser, "#picker .close")
    browser.find_element("id", "notation").send_keys(notation)
    _click(browser, "#notation-set")
    want = str(expected["total"]) if expected["valid"] else "✗"
    _wait(browser, lambda d: _total(d) == want)
    _assert_no_script_errors(browser)


def test_only_mcr_speaks_of_the_8_point_minimum(server: str, browser: Any) -> None:
    """The other rule sets' scores say meets_minimum true for any legal win; the page had
    shown "meets the 8-point minimum" under Sichuan too. A hand legal under both, 6 points
    under MCR."""
    from selenium.webdriver.support.ui import Select

    def said(d: Any, element: str) -> str:  # the words, shown or scrolled away
        return str(d.find_element("id", element).get_attribute("textContent"))

    browser.get(server)
    _click(browser, "#manual")
    _click(browser, "#picker .close")
    browser.find_element("id", "notation").send_keys("111m234m567m789p99p")
    _click(browser, "#notation-set")
    _wait(browser, lambda d: "8" in said(d, "minimum") and "8" in said(d, "sticky-min"))
    Select(browser.find_element("id", "ruleset")).select_by_value("sichuan")
    _wait(browser, lambda d: _total(d) == "0")
    assert "8" not in said(browser, "minimum") + said(browser, "sticky-min")
    _assert_no_script_errors(browser)


def _wait_rows(driver: Any) -> list[str]:
    return [
        str(row.get_attribute("data-tile"))
        for row in driver.find_elements("css selector", "#waits tbody tr")
    ]


def test_a_photo_of_13_tiles_shows_its_waits_and_scores_a_win_on_one(
    waiting_server: str, browser: Any
) -> None:
    """A third of real photos of hands show 13 tiles: the page lists what the hand waits on,
    and a wait tapped scores the win on it, on a discard or (its self-drawn points) drawn."""
    from scoring import score
    from tests.api.fakes import replay_body, waiting_body

    body = waiting_body(replay_body({}, "mcr", ""), "mcr")
    hand = _page_hand({**body["hand"], "winning_tile": None})
    for flag in ("self_drawn", "last_tile", "kong_replacement", "robbing_kong"):
        hand.pop(flag)
    want = score(hand).to_json()["waits"]
    browser.get(waiting_server)
    _click(browser, "#sample")
    _wait(browser, lambda d: len(_wait_rows(d)) == len(want))
    browser.execute_script("document.getElementById('waits-box').scrollIntoView()")
    _shot(browser, "8-waits")
    assert _wait_rows(browser) == [w["tile"] for w in want]
    first = want[0]
    row = f'#waits tr[data-tile="{first["tile"]}"]'
    shown = browser.find_element("css selector", f"{row} .pts.discard").text
    assert shown == str(first["discard"]["total"])
    assert _total(browser) == "—"

    _click(browser, f"{row} .tile")  # on a discard
    won = {**hand, "winning_tile": first["tile"], "self_drawn": False}
    _wait(browser, lambda d: _total(d) == _expected_total(won))
    assert not browser.find_element("id", "waits-box").is_displayed()
    _shot(browser, "9-won-on-a-wait")

    _click(browser, "#waits-back")
    _wait(browser, lambda d: len(_wait_rows(d)) == len(want))
    _click(browser, f"{row} .pts.self_drawn")
    drawn = {**won, "self_drawn": True}
    _wait(browser, lambda d: _total(d) == _expected_total(drawn))
    assert browser.find_element("id", "self_drawn").is_selected()
    assert _expected_total(drawn) == str(first["self_drawn"]["total"])
    sheet = browser.execute_script(
        "return document.getElementById('sheet-corrections').textContent"
    )
    assert f"won on {first['tile']}" in sheet

    _click(browser, "#waits-back")
    _click(browser, "#lang")
    _wait(browser, lambda d: d.find_element("css selector", "#waits-box h3").text == "听牌")
    _assert_no_script_errors(browser)
    _click(browser, "#lang")


def test_without_models_the_sample_says_so_and_manual_entry_scores(
    no_models_server: str, browser: Any
) -> None:
    browser.get(no_models_server)
    _click(browser, "#sample")
    status = _wait(
        browser,
        lambda d: (
            d.find_element("id", "status").text
            if "error" in (d.find_element("id", "status").get_attribute("class") or "")
            else None
        ),
    )
    assert "detector.onnx" in status
    assert browser.find_element("id", "photo").get_attribute("naturalWidth") != "0"
    _shot(browser, "7-no-models")
    browser.find_element("id", "notation").send_keys("[567m,2][999s,3][EEEE]123pCC")
    _click(browser, "#notation-set")
    from scoring import parse_notation, score

    want = str(score(parse_notation("[567m,2][999s,3][EEEE]123pCC")).total)
    _wait(browser, lambda d: _total(d) == want)


def _photo_file(tmp_path: Path, name: str, width: int, height: int) -> Path:
    """A plain photo; the stand-in reads the enrollment layout in it (fakes.py: a portrait
    one with rows 2 and 3 swapped)."""
    import cv2
    import numpy as np

    ramp = np.linspace(0, 255, width * height, dtype=np.float32).reshape(height, width)
    path = tmp_path / name
    assert cv2.imwrite(str(path), np.stack([ramp, ramp[::-1], ramp], axis=2).astype(np.uint8))
    return path


def _said(driver: Any, element: str) -> str:
    return str(driver.find_element("id", element).get_attribute("textContent"))


def test_teach_a_set_pick_it_and_remember_corrections(
    server: str, browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.support.ui import Select

    browser.get(server)
    browser.execute_script("localStorage.clear()")
    browser.get(server)
    _click(browser, "#teach-open")
    _wait(browser, lambda d: d.find_element("id", "teach-card").is_displayed())
    rows = browser.find_elements("css selector", "#teach-guide .guide-row")
    assert [len(r.find_elements("css selector", ".tile")) for r in rows] == [9, 9, 9, 7, 8]
    first = rows[3].find_elements("css selector", ".tile")
    assert [t.get_attribute("data-code") for t in first] == list("ESWNCFP")
    _shot(browser, "8-teach-guide")

    # A photo laid out wrong: the server's reason names the row.
    browser.find_element("id", "teach-name").send_keys("Page Set")
    browser.get_log("browser")  # only this test's entries are checked at its end
    mislaid = _photo_file(tmp_path, "mislaid.jpg", 480, 640)
    browser.find_element("id", "teach-input").send_keys(str(mislaid))
    _wait(browser, lambda d: "row 2" in _said(d, "teach-status"))
    assert browser.find_element("id", "teach-status").get_attribute("class") == "error"

    browser.find_element("id", "teach-input").send_keys(
        str(_photo_file(tmp_path, "e.jpg", 640, 480))
    )
    _wait(browser, lambda d: "page-set" in _said(d, "teach-status"))
    assert "42" in _said(browser, "teach-status")
    picker = Select(browser.find_element("id", "set-picker"))
    _wait(browser, lambda d: picker.first_selected_option.get_attribute("value") == "page-set")
    assert browser.execute_script("return localStorage.getItem('mjlens.set')") == "page-set"

    # Remembered across visits, sent with the photo, and corrections taught to it.
    browser.get(server)
    picker = Select(browser.find_element("id", "set-picker"))
    _wait(browser, lambda d: picker.first_selected_option.get_attribute("value") == "page-set")
    _click(browser, "#sample")
    _wait(browser, lambda d: "page-set" in _said(d, "status"))
    assert browser.find_element("id", "remember").is_selected()
    _click(browser, "#boxes .box.winning")
    hand = _page_hand(SAMPLE_TRUTH["hand"])
    other = next(c for c in CODES if c != hand["winning_tile"])
    _click(browser, f'#picker-faces .tile[data-code="{other}"]')
    _wait(browser, lambda d: "Remembered 1" in _said(d, "remember-status"))
    _shot(browser, "9-remembered")
    with urllib.request.urlopen(server + "v1/sets/page-set") as response:
        assert json.load(response)["looks"] == 43
    _assert_no_script_errors(browser, answered="422")
