"""The phone page at arm's length, in headless Chromium 360 px wide with no font added: each
photo scored on its own; notes shown once, in the page's language; no null and no JSON
pointer in what it says; tap targets of 44 px; labels on the photo that never overlap and
boxes inside it; tile faces drawn as SVG (no CJK font needed); installable and usable offline
for manual entry; axe-core finds no serious or critical violation in any state.

With MJLENS_SCREENSHOTS=DIR each state is kept as DIR/N-name.png (browser_kit.shot).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api import browser_kit as kit
from tests.api.fakes import SAMPLE_TRUTH
from tests.api.page_fakes import LEFT_OUT, TILE_LEFT_OUT, UNKNOWN_NOTE

pytestmark = pytest.mark.browser

AXE_VERSION = "4.10.3"  # scripts/install_browser.sh fetches it
AXE = kit.ROOT / ".cache" / "axe" / f"axe-{AXE_VERSION}.min.js"
TAP = 44  # px, the least a finger hits reliably (WCAG 2.5.5, Apple's and Google's guides)
CJK = re.compile(r"[\u3400-\u9fff]")
POINTER = re.compile(r"(^|[\s(])/(concealed|melds|winning_tile|flowers|hand)\b")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from kit.serve("tests.api.page_fakes:create_noted_app", "readyz")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from kit.start_browser()


# ---- helpers -------------------------------------------------------------------------------


def axe_violations(driver: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not AXE.is_file():
        message = f"{AXE} missing: run scripts/install_browser.sh"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    driver.set_script_timeout(60)
    found = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']})"
        ".then((r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact,"
        " nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3)}))))"
        ".catch((e) => done([{id: 'axe-error', impact: 'critical', nodes: [String(e)]}]));"
    )
    return [
        f"{v['id']} ({v['impact']}): {v['nodes']}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def rect(element: Any) -> tuple[float, float, float, float]:
    r = element.rect
    return (r["x"], r["y"], r["x"] + r["width"], r["y"] + r["height"])


def assert_tappable(driver: Any, css: str) -> int:
    found = [e for e in driver.find_elements("css selector", css) if e.is_displayed()]
    assert found, css
    for element in found:
        size = element.size
        assert size["width"] >= TAP and size["height"] >= TAP, (css, size)
    return len(found)


def page_text(driver: Any) -> str:
    return str(driver.execute_script("return document.querySelector('main').innerText"))


def notes(driver: Any) -> list[Any]:
    return list(driver.find_elements("css selector", "#warnings li"))


def scroll_to(driver: Any, element_id: str) -> None:
    driver.execute_script(f"document.getElementById('{element_id}').scrollIntoView()")


def read_photo(driver: Any, path: Path, tiles: int) -> None:
    kit.pick_photo(driver, path)
    kit.wait(
        driver,
        lambda d: (
            len(d.find_elements("css selector", "#boxes .box")) == tiles
            and kit.total(d) not in ("", "—")
        ),
    )


# ---- tests ---------------------------------------------------------------------------------


def test_a_flagged_photo_its_notes_zoom_and_score(
    server: str, browser: Any, tmp_path: Path
) -> None:
    browser.get(server)
    browser.execute_script("localStorage.clear()")
    browser.get(server)
    kit.shot(browser, "1-start")
    assert axe_violations(browser) == []

    read_photo(browser, kit.sample_as(tmp_path, ".jpg"), len(SAMPLE_TRUTH["tiles"]))
    assert browser.find_element("id", "status").get_attribute("class") == "warn"

    # Each note once (the review reasons repeat the notes and a warning), in words: the
    # coded ones in the page's own, the others as the server said them.
    said = [li.find_element("css selector", "span").text for li in notes(browser)]
    assert len(said) == 4, said
    assert len(set(said)) == 4, said
    assert "Another reading of the tiles is possible" in said[0]
    assert said[1] == "A doubtful detection was left out of the hand."
    assert said[2:] == [UNKNOWN_NOTE, TILE_LEFT_OUT]
    assert LEFT_OUT not in said  # said by its code's words instead
    noted = browser.find_elements("css selector", "#boxes .box.noted")
    assert len(noted) == 3  # the note's tiles 10, 11 and 15 are marked on the photo
    assert_tappable(browser, "#warnings .show-tile")
    scroll_to(browser, "photo-card")
    kit.shot(browser, "4-review")
    assert axe_violations(browser) == []

    # The boxes lie inside the photo (one was sent running off it), the labels too, and no
    # label lies on another.
    photo = rect(browser.find_element("id", "photo"))
    for box in browser.find_elements("css selector", "#boxes .box"):
        r = rect(box)
        assert photo[0] - 1 <= r[0] and r[2] <= photo[2] + 1, (r, photo)
        assert photo[1] - 1 <= r[1] and r[3] <= photo[3] + 1, (r, photo)
    labels = [rect(e) for e in browser.find_elements("css selector", "#boxes .label")]
    assert len(labels) >= len(SAMPLE_TRUTH["tiles"]) - 2, "most tiles keep their label"
    for r in labels:
        assert photo[0] - 1 <= r[0] and r[2] <= photo[2] + 1 and photo[1] - 1 <= r[1]
        assert r[3] <= photo[3] + 1
    for a, b in itertools.combinations(labels, 2):
        assert not kit.overlap(a, b), (a, b)

    # A self-drawn win has no discarder: no "null" anywhere, no payment line for it.
    kit.click(browser, "#self_drawn")
    hand = {**kit.page_hand(SAMPLE_TRUTH["hand"]), "self_drawn": True}
    want = kit.expected_total(hand)
    kit.wait(browser, lambda d: kit.total(d) == want)
    scroll_to(browser, "score-card")
    kit.shot(browser, "3-hand-score")
    payments = browser.find_element("id", "payments").text
    assert "Discarder" not in payments and "Winner" in payments
    text = page_text(browser)
    assert "null" not in text and "undefined" not in text and "[object" not in text
    assert not POINTER.search(text), POINTER.search(text)
    assert browser.find_element("id", "total-unit").text == "points"
    # English on a device without a Chinese font: no Chinese character (an empty box there).
    if browser.execute_script("return state.noCjkFont"):
        assert not CJK.search(page_text(browser)), CJK.search(page_text(browser))

    # Tap targets: every tile of the hand list, the photo, the zoom's previous and next.
    assert assert_tappable(browser, "#hand .tile") >= 14
    assert_tappable(browser, "#photo-wrap")
    kit.click(browser, "#boxes .box.winning")
    kit.wait(browser, lambda d: d.find_element("id", "zoom").is_displayed())
    count = browser.find_element("id", "zoom-count").text
    assert count == f"tile 14 of {len(SAMPLE_TRUTH['tiles'])}", count
    for css in ("#zoom-prev", "#zoom-next", "#picker .close"):
        assert_tappable(browser, css)
    assert axe_violations(browser) == []
    title = browser.find_element("id", "picker-title").text
    kit.click(browser, "#zoom-next")
    kit.wait(browser, lambda d: d.find_element("id", "zoom-count").text.startswith("tile 15 "))
    assert browser.find_element("id", "picker-title").text != title
    kit.shot(browser, "8-zoom")
    kit.click(browser, "#zoom-prev")
    kit.wait(browser, lambda d: d.find_element("id", "picker-title").text == title)
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()  # the keyboard steps too
    kit.wait(browser, lambda d: d.find_element("id", "zoom-count").text.startswith("tile 15 "))
    kit.click(browser, "#picker .close")

    # 中文: every coded note in Chinese, the others marked as English; the unit translated.
    kit.click(browser, "#lang")
    kit.wait(browser, lambda d: d.find_element("css selector", "#hand-card h2").text == "牌型")
    spans = [li.find_element("css selector", "span") for li in notes(browser)]
    assert len(spans) == 4
    assert all(CJK.search(s.text) for s in spans[:2]), [s.text for s in spans]
    assert [s.get_attribute("lang") for s in spans[2:]] == ["en", "en"]
    assert browser.find_element("id", "total-unit").text == "分"  # MCR's unit, points
    assert "null" not in page_text(browser)
    # The Chinese words are drawn, not empty boxes: where the device has no Chinese font (as
    # this machine's Chromium has none), by the page's own.
    kit.wait_fonts(browser)
    if browser.execute_script("return state.noCjkFont"):
        for css in ("#hand-card h2", "#sample", "#fans tbody .first", "#warnings li span"):
            drawn = kit.fonts_drawing(browser, css)
            assert drawn.get("mjlens CJK", 0) >= 2, (css, drawn)
    scroll_to(browser, "photo-card")
    browser.execute_script("window.scrollBy(0, 200)")
    kit.shot(browser, "6-chinese")
    assert axe_violations(browser) == []
    kit.click(browser, "#lang")
    kit.assert_no_script_errors(browser)


def test_the_next_photo_counts_no_flower_of_the_last(
    server: str, browser: Any, tmp_path: Path
) -> None:
    """A photo with one flower, then one without: the second had still counted the first's
    flower (its count stayed in the flowers field), across the 8-point line."""
    browser.get(server)
    read_photo(browser, kit.sample_as(tmp_path, ".jpg"), len(SAMPLE_TRUTH["tiles"]))
    with_flower = kit.page_hand(SAMPLE_TRUTH["hand"])
    kit.wait(browser, lambda d: kit.total(d) == kit.expected_total(with_flower))
    assert browser.find_element("id", "flowers").get_attribute("value") == "1"
    kit.click(browser, "#self_drawn")

    # The same hand photographed without its flower (page_fakes.without_flowers).
    flowerless = {**with_flower, "flowers": 0}
    want = kit.expected_total(flowerless)
    assert want != kit.expected_total({**flowerless, "flowers": 1})  # the test can fail
    read_photo(browser, kit.sample_as(tmp_path, ".png", width=1000), len(SAMPLE_TRUTH["tiles"]) - 1)
    kit.wait(browser, lambda d: kit.total(d) == want)
    assert browser.find_element("id", "flowers").get_attribute("value") == "0"
    assert not browser.find_element("id", "self_drawn").is_selected()  # a new win's flags
    assert notes(browser) == []  # the last photo's notes went with it
    browser.execute_script("window.scrollTo(0, 0)")
    kit.shot(browser, "2-photo-read")
    kit.assert_no_script_errors(browser)


def test_tile_faces_are_drawn_not_typed(server: str, browser: Any) -> None:
    """Every face is SVG with no character of text on it: on a device without a CJK font (as
    this machine's Chromium is) the tiles still show their faces, each one its own."""
    browser.get(server)
    fc_list = shutil.which("fc-list")
    if fc_list:  # the page's own test for a Chinese font agrees with fontconfig's
        zh_fonts = subprocess.run([fc_list, ":lang=zh"], capture_output=True, text=True).stdout
        assert browser.execute_script("return state.noCjkFont") == (not zh_fonts.strip())
    kit.click(browser, "#manual")
    kit.wait(browser, lambda d: d.find_element("id", "picker").is_displayed())
    faces = browser.find_elements("css selector", "#picker-faces .tile")
    assert len(faces) == 43
    looks = set()
    for face in faces:
        code = face.get_attribute("data-code")
        shown = face.get_attribute("textContent")
        assert not CJK.search(shown), (code, shown)  # only the Latin code under the face
        drawn = face.find_elements("css selector", "svg.face path, svg.face circle, svg.face rect")
        assert code == "back" or drawn, code
        looks.add(face.screenshot_as_png)
    assert len(looks) == 43, "two faces look the same"
    kit.assert_no_script_errors(browser)


def test_every_face_of_the_picker_is_a_44_px_target(server: str, browser: Any) -> None:
    """The picker's 43 faces had been nine across at 360 px, 35 px wide: each face's box is
    measured, and nothing scrolls sideways, on the page or in the picker."""
    browser.get(server)
    kit.click(browser, "#manual")
    kit.wait(browser, lambda d: d.find_element("id", "picker").is_displayed())
    boxes = browser.execute_script(
        "return [...document.querySelectorAll('#picker-faces .tile')].map((e) => {"
        " const r = e.getBoundingClientRect();"
        " return [e.dataset.code, r.left, r.width, r.height]; })"
    )
    assert len(boxes) == 43
    small = [(code, w, h) for code, _, w, h in boxes if w < TAP or h < TAP]
    assert not small, small
    assert all(left >= 0 and left + w <= kit.WIDTH for _, left, w, _ in boxes), boxes
    sideways = browser.execute_script(
        "const p = document.getElementById('picker'), r = document.documentElement;"
        "return [r.scrollWidth - window.innerWidth, p.scrollWidth - p.clientWidth]"
    )
    assert sideways == [0, 0], sideways
    # Each suit's row breaks where a player counts: 1-5 | 6-9, winds | dragons.
    tops = {
        code: round(top)
        for code, top in browser.execute_script(
            "return [...document.querySelectorAll('#picker-faces .tile')].map((e) =>"
            " [e.dataset.code, e.getBoundingClientRect().top])"
        )
    }
    assert tops["1m"] == tops["5m"] < tops["6m"] == tops["9m"]
    assert tops["E"] == tops["N"] < tops["C"] == tops["P"]
    assert tops["1h"] == tops["4h"] < tops["5h"] == tops["back"]
    kit.shot(browser, "12-picker")
    assert axe_violations(browser) == []
    # Correcting a tile of the hand: the faces under the group and tool rows, still in bounds.
    kit.click(browser, '#picker-faces .tile[data-code="3p"]')
    kit.click(browser, "#picker .close")
    kit.click(browser, '#hand .tile[data-code="3p"]')
    kit.wait(browser, lambda d: d.find_element("id", "picker-tools").is_displayed())
    assert assert_tappable(browser, "#picker-faces .tile") == 43
    assert browser.execute_script(
        "const p = document.getElementById('picker'), r = document.documentElement;"
        "return [r.scrollWidth - window.innerWidth, p.scrollWidth - p.clientWidth]"
    ) == [0, 0]
    kit.click(browser, "#picker .close")
    kit.assert_no_script_errors(browser)


def test_manual_entry_works_offline_once_installed(tmp_path: Path, browser: Any) -> None:
    """Installable (Chromium finds no installability error), and with the server gone the
    page still opens and takes a hand by hand. This server has no offline scorer (its runtime
    not installed: test_offline_scoring.py scores with it), so the page says that scoring
    needs the server and that offline scoring is not available."""
    no_runtime = {"MJLENS_PYODIDE_DIR": str(tmp_path / "no-pyodide")}
    live = kit.serve("tests.api.page_fakes:create_noted_app", "readyz", no_runtime)
    base = next(live)
    try:
        browser.get(base)
        manifest = json.load(urllib.request.urlopen(base + "static/manifest.webmanifest"))
        for icon in manifest["icons"]:
            with urllib.request.urlopen(base + "static/" + icon["src"]) as answer:
                assert answer.status == 200
        browser.set_script_timeout(30)
        browser.execute_async_script(
            "navigator.serviceWorker.ready.then(() => arguments[arguments.length - 1]())"
        )
        browser.get(base)  # now under the worker, which keeps what the page loads
        assert browser.execute_script("return !!navigator.serviceWorker.controller")
        errors = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})
        assert errors["installabilityErrors"] == [], errors
        kit.click(browser, "#manual")
        kit.click(browser, "#picker .close")
        browser.find_element("id", "notation").send_keys("[567m,2][999s,3][EEEE]123pCC")
        kit.click(browser, "#notation-set")
        from scoring import parse_notation, score

        want = str(score(parse_notation("[567m,2][999s,3][EEEE]123pCC")).total)
        kit.wait(browser, lambda d: kit.total(d) == want)
        excluded = "return document.getElementById('excluded').textContent"
        assert "(non-repeat)" in browser.execute_script(excluded)
        kit.click(browser, "#lang")  # the principle in the page's words, not the scorer's code
        kit.wait(browser, lambda d: "(不重复原则)" in d.execute_script(excluded))
        kit.click(browser, "#lang")
        scroll_to(browser, "hand-card")
        kit.shot(browser, "5-manual")
        assert axe_violations(browser) == []
        # The unit is the rule set's, from the Score (points where a server gives none).
        from selenium.webdriver.support.ui import Select

        Select(browser.find_element("id", "ruleset")).select_by_value("sichuan")
        kit.wait(browser, lambda d: d.find_element("id", "total-unit").text == "fan")
        units = browser.execute_script(
            "return [unitOf({total: 3}), unitOf({unit: 'lezi'}), unitOf({unit: 'fan'})]"
        )
        assert units == ["points", "lezi", "fan"]
    finally:
        live.close()  # the server is gone: only the service worker answers now

    browser.get(base)
    kit.wait(browser, lambda d: d.find_element("id", "manual").is_displayed())
    kit.click(browser, "#manual")
    for code in [
        "1m",
        "2m",
        "3m",
        "4m",
        "5m",
        "6m",
        "7m",
        "8m",
        "9m",
        "2p",
        "3p",
        "4p",
        "5p",
        "5p",
    ]:
        kit.click(browser, f'#picker-faces .tile[data-code="{code}"]')
    kit.wait(browser, lambda d: not d.find_element("id", "picker").is_displayed())
    assert len(browser.find_elements("css selector", "#hand .tile")) == 14
    # The 13th tile was scored too (a waiting hand), with the same words: score the 14 once
    # more, after the last tap's own rescore has started (its timer is 120 ms), and wait for
    # that answer, not an earlier one.
    browser.execute_async_script("setTimeout(arguments[arguments.length - 1], 300)")
    browser.execute_script("state.score = null; rescore()")
    kit.wait(browser, lambda d: d.execute_script("return !!state.score && !state.score.pending"))
    said = browser.find_element("id", "score-error").text
    assert "Scoring needs the server" in said and "Offline scoring is not available" in said
    assert kit.total(browser) == "✗"
    assert not browser.find_element("id", "score-source").is_displayed()


def test_an_error_says_why_in_the_pages_language(server: str, browser: Any, tmp_path: Path) -> None:
    heic = tmp_path / "table.heic"
    heic.write_bytes(b"\x00\x00\x00\x18ftypheic" + bytes(64))
    browser.get(server)
    kit.pick_photo(browser, heic)

    def error(d: Any) -> str | None:
        status = d.find_element("id", "status")
        return status.text if status.get_attribute("class") == "error" else None

    said = kit.wait(browser, error)
    assert "HEIC/AVIF photos are not supported" in said
    assert "null" not in said and not POINTER.search(said)
    kit.shot(browser, "7-error")
    assert axe_violations(browser) == []
    kit.click(browser, "#lang")
    kit.wait(browser, lambda d: CJK.search(d.find_element("id", "status").text))
    kit.click(browser, "#lang")
    kit.assert_no_script_errors(browser, answered="415")


def test_the_teaching_guide_and_the_api_reader_pass_axe(server: str, browser: Any) -> None:
    browser.get(server)
    kit.click(browser, "#teach-open")
    kit.wait(browser, lambda d: d.find_element("id", "teach-card").is_displayed())
    assert axe_violations(browser) == []
    browser.get(server + "docs")
    kit.wait(browser, lambda d: len(d.find_elements("css selector", "section.card")) > 3)
    assert axe_violations(browser) == []
    kit.assert_no_script_errors(browser)
