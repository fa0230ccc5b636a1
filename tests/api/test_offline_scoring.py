"""Scoring with the network off: the page, once used online, scores hands on the phone with
the server's own Python scorer (Pyodide in a Web Worker; api/offline_scorer.py,
static/score-worker.js), and what it answers is what `/v1/score` answers for the same hands,
under MCR and the other rule sets, for wins, a waiting hand and a refused hand. Without the
runtime the page says offline scoring is not available (test_page.py)."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.api import browser_kit as kit
from tests.api.test_page import axe_violations

pytestmark = pytest.mark.browser

RUNTIME = kit.ROOT / ".cache" / "pyodide"  # scripts/install_pyodide.sh; the server's default
CASES = [
    ("[567m,2][999s,3][EEEE]123pCC", "mcr"),  # melds, a concealed kong, dragons
    ("19m19p19sESWNCFPP", "mcr"),  # thirteen orphans
    ("111m234m567m789p99p", "sichuan"),  # fan, not points
    ("[CCC][FFF,1]PP123m78s9s", "shanghai"),
    ("[567m,2][999s,3][EEEE]123pCC", "beijing"),
    ("123m456m789m11p23p", "mcr-mil"),  # 13 tiles: a hand waiting to win, its waits
    ("11111m234p567s99s", "mcr"),  # five of one tile: refused, the tiles marked
]
# What the page keeps of an answer: the scorer's JSON, or the problem it shows and the tiles
# the problem's pointer marks.
ANSWER = """
const s = state.score;
if (!s || s.pending) return null;
const {offline, on_device, ...score} = s;
return JSON.stringify({score, onDevice: !!on_device, total: kit_total(),
  bad: state.badIds ? [...state.badIds].length : 0});
""".replace("kit_total()", "document.getElementById('total-points').textContent")


def _require_runtime() -> None:
    if (RUNTIME / "pyodide.asm.wasm").is_file():
        return
    message = f"{RUNTIME} missing: run scripts/install_pyodide.sh"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from kit.start_browser()


def _score_in_page(driver: Any, notation: str, ruleset: str, timeout: float) -> dict[str, Any]:
    driver.execute_script(
        "const [notation, ruleset] = arguments;"
        "document.getElementById('ruleset').value = ruleset;"
        "document.getElementById('notation').value = notation;"
        "state.score = null;"
        "document.getElementById('notation-form').requestSubmit();",
        notation,
        ruleset,
    )
    said = kit.wait(driver, lambda d: d.execute_script(ANSWER), timeout=timeout)
    return dict(json.loads(said))


def _servers_answer(base: str, hand: dict[str, Any], ruleset: str) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"{base}v1/score?ruleset={ruleset}",
        data=json.dumps(hand).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as refused:
        return refused.code, json.load(refused)


def test_offline_the_page_scores_as_the_server_does(browser: Any) -> None:
    _require_runtime()
    live = kit.serve("create_replay_app", "readyz")
    base = next(live)
    online: list[dict[str, Any]] = []
    try:
        browser.get(base)
        browser.set_script_timeout(60)
        browser.execute_async_script(
            "navigator.serviceWorker.ready.then(() => arguments[arguments.length - 1]())"
        )
        browser.get(base)  # under the worker, which kept the page and the offline scorer
        assert browser.execute_script("return !!navigator.serviceWorker.controller")
        kit.click(browser, "#manual")
        kit.click(browser, "#picker .close")
        for notation, ruleset in CASES:
            said = _score_in_page(browser, notation, ruleset, timeout=20)
            assert not said["onDevice"], (notation, ruleset)
            hand = browser.execute_script("return buildHand()")
            status, body = _servers_answer(base, hand, ruleset)
            if status == 200:  # the page shows the server's own answer
                assert said["score"] == body, (notation, ruleset)
            else:
                assert status == 422 and said["bad"] > 0, (notation, status, body)
            online.append(said)
        kinds = [("waits" if s["score"].get("waits") else "valid") for s in online[:-1]]
        assert kinds.count("valid") >= 4 and "waits" in kinds  # the cases are what they say
        assert {s["score"].get("ruleset") for s in online[:-1]} >= {"mcr", "sichuan", "beijing"}
    finally:
        live.close()  # the server is gone: only the service worker answers now

    browser.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    try:
        browser.get(base)
        kit.wait(browser, lambda d: d.find_element("id", "manual").is_displayed())
        kit.click(browser, "#manual")
        kit.click(browser, "#picker .close")
        for (notation, ruleset), want in zip(CASES, online, strict=True):
            # The first hand starts Pyodide on a shared two-core machine: allow it minutes.
            said = _score_in_page(browser, notation, ruleset, timeout=240)
            assert said["onDevice"], (notation, ruleset, said)
            assert said["score"] == want["score"], (notation, ruleset)
            assert said["total"] == want["total"] and said["bad"] == want["bad"]
        _score_in_page(browser, *CASES[0], timeout=30)
        assert browser.find_element("id", "score-source").is_displayed()  # says it is offline
        browser.execute_script("document.getElementById('score-card').scrollIntoView()")
        kit.shot(browser, "13-offline-score")
        assert axe_violations(browser) == []
        rows = browser.find_elements("css selector", "#fans tbody tr")
        assert [r.get_attribute("data-fan") for r in rows] == [
            str(f["id"]) for f in online[0]["score"]["fans"]
        ]
        started, last = browser.execute_script("return [offline.loadMs, offline.lastMs]")
        print(f"\noffline scorer: started in {started} ms; the last hand answered in {last} ms")
    finally:
        browser.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
        )
