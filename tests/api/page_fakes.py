"""Stand-in recognizers for the page's states in the browser test (tests/api/test_page.py).

`NotedRecognizer` answers the bundled sample as `ReplayRecognizer` does, flagged for review
with structured notes, review reasons that repeat a warning, and one box running off the
photo. Any other photo reads as the sample's hand without its flower (boxes scaled to the
photo), so a test can send a photo with a flower and then one without.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI

from api.app import create_app
from api.limits import Limits
from tests.api.fakes import Replayed, ReplayRecognizer
from vision.tileset import TileSet

SAMPLE_WIDTH = 1280  # api/static/sample.jpg is 1280 x 960
ANOTHER_READING = "another reading is possible (hand confidence 0.41)"
LEFT_OUT = "a doubtful detection was left out of the hand"
TILE_LEFT_OUT = "left out tile #16: the detector doubts it (confidence 0.31)"
UNKNOWN_NOTE = "a note whose code the page has no words for"
# Off the photo's right and bottom edges (the winning tile's box, pushed out).
OFF_THE_PHOTO = [1190.0, 880.0, 1340.0, 1010.0]


def noted(body: dict[str, Any]) -> dict[str, Any]:
    """The sample flagged: three notes, review reasons and warnings that repeat them."""
    tiles = [dict(t) for t in body["tiles"]]
    winning = next(i for i, t in enumerate(tiles) if t["role"] == "winning")
    tiles[winning]["box"] = OFF_THE_PHOTO
    notes = [
        {"code": "another_reading", "tiles": [10, 11], "message": ANOTHER_READING},
        {"code": "doubtful_tile_left_out", "tiles": [15], "message": LEFT_OUT},
        {"code": "a_code_from_a_newer_server", "tiles": [], "message": UNKNOWN_NOTE},
    ]
    return {
        **body,
        "tiles": tiles,
        "notes": notes,
        "review": True,
        "score_review": True,
        "review_reasons": [ANOTHER_READING, LEFT_OUT],
        "warnings": [ANOTHER_READING, TILE_LEFT_OUT],
    }


def without_flowers(body: dict[str, Any], ruleset: str, width: int) -> dict[str, Any]:
    """The sample's hand with no flower, its boxes scaled to a photo `width` pixels wide."""
    from scoring import score

    k = width / SAMPLE_WIDTH
    tiles = [
        {**t, "box": [round(v * k, 1) for v in t["box"]]}
        for t in body["tiles"]
        if t["role"] != "flower"
    ]
    hand = {**body["hand"], "flowers": 0}
    return {**body, "tiles": tiles, "hand": hand, "score": score(hand, ruleset).to_json()}


class NotedRecognizer(ReplayRecognizer):
    def recognize(
        self,
        data: bytes,
        context: Mapping[str, Any] | None = None,
        ruleset: str = "mcr",
        tileset: TileSet | None = None,
    ) -> Replayed:
        from vision.load import load_photo

        body = super().recognize(data, context, ruleset, tileset).to_json()
        width = load_photo(data).original_size[0]
        if width == SAMPLE_WIDTH:
            return Replayed(noted(body))
        return Replayed(without_flowers(body, ruleset, width))


def create_noted_app() -> FastAPI:
    """For `uvicorn tests.api.page_fakes:create_noted_app --factory` (the browser test)."""
    return create_app(recognizer_factory=NotedRecognizer, limits=Limits.from_env())
