"""The page's pure helpers on hard cases, run in the browser: label placement on a crowd of
overlapping boxes, boxes clamped to the photo, problem answers put in words, notes each once."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from tests.api import browser_kit as kit

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from kit.serve("create_replay_app", "readyz")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from kit.start_browser()


def test_the_pages_helpers_on_hard_cases(server: str, browser: Any) -> None:
    """Labels on a crowd of small, overlapping boxes; boxes off the photo; pointers and
    non-text in problem answers; notes repeated across the three lists."""
    browser.get(server)
    crowd = browser.execute_script(
        """
        const items = [];
        for (let i = 0; i < 60; i++) {  // 60 tiles of 14 x 18 px, each overlapping the next
          const x = 5 + (i % 20) * 11, y = 5 + Math.floor(i / 20) * 15;
          items.push({rect: [x, y, x + 14, y + 18], text: i % 3 ? "5p" : "back"});
        }
        placeLabels(items, 240, 120);
        return items.map((it) => it.label);
        """
    )
    placed = [tuple(r) for r in crowd if r is not None]
    assert len(placed) >= 20  # as many as fit
    for r in placed:
        assert min(r[0], r[1]) >= 0 and r[2] <= 240 and r[3] <= 120, r
    for a, b in itertools.combinations(placed, 2):
        assert not kit.overlap(a, b), (a, b)

    clamped = browser.execute_script(
        "return [clampBox([-20, 10, 50, 90], 100, 80), clampBox([120, 10, 150, 40], 100, 80),"
        " clampBox([10, 10, NaN, 40], 100, 80), clampBox(null, 100, 80)]"
    )
    assert clamped == [[0, 10, 50, 80], None, None, None]

    said = browser.execute_script(
        """
        return [
          problemText({type: "/problems/invalid-hand", detail: "5 copies of 1m (at /concealed)"},
                      {status: 422}),
          problemText({detail: [{msg: "x"}], title: null}, {status: 400}),
          problemText({}, {status: 502}),
        ];
        """
    )
    assert said == ["5 copies of 1m", "the server answered 400", "the server answered 502"]

    shown = browser.execute_script(
        """
        return notesOf({
          notes: [{code: "no_legal_hand", tiles: [], message: "no legal hand was read"}, null],
          review_reasons: ["no legal hand was read", "something else"],
          warnings: ["something else", {message: "an object warning"}, 7],
        }).map((n) => n.code || n.message);
        """
    )
    assert shown == ["no_legal_hand", "something else", "an object warning"]
    kit.assert_no_script_errors(browser)
