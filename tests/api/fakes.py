"""Stand-in recognizers for API and browser tests, where the ONNX models may not exist.

`ReplayRecognizer` checks the photo with the real `vision.load` (so bad photos fail exactly
as in production) and then answers with the bundled sample's TRUE hand and tile boxes,
scored by the real scorer. It tests the HTTP and page plumbing, never recognition quality.
For teaching tile sets it "finds" an enrollment layout in any photo (`enrollment_tiles`),
so the real `api.teach` runs on it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from fastapi import FastAPI

from api.app import create_app
from api.limits import Limits
from scoring.tiles import CLASSES, STANDARD_ROWS
from vision.load import Photo
from vision.pipeline import WHICH_FLOWER
from vision.tileset import TileSet
from vision.types import Tiles

SAMPLE_DIR = Path(__file__).resolve().parents[2] / "api" / "static"
SAMPLE_PHOTO = SAMPLE_DIR / "sample.jpg"
SAMPLE_TRUTH = json.loads((SAMPLE_DIR / "sample.json").read_text())


class Replayed:
    """A recognition's JSON replayed; no photo kept, so a reading asked to learn teaches
    nothing (what it would teach is tested with the real models)."""

    photo = None

    def __init__(self, body: dict[str, Any]) -> None:
        self.body = body
        self.learned: int | None = None

    def to_json(self) -> dict[str, Any]:
        body = json.loads(json.dumps(self.body))
        return body if self.learned is None else {**body, "learned": self.learned}


def _xyxy(bbox: list[float]) -> list[float]:
    x, y, w, h = bbox
    return [round(x, 1), round(y, 1), round(x + w, 1), round(y + h, 1)]


def replay_body(
    context: Mapping[str, Any] | None, ruleset: str, sha256: str, tileset: str | None = None
) -> dict[str, Any]:
    from scoring import score

    hand = dict(SAMPLE_TRUTH["hand"])
    hand.update({k: v for k, v in (context or {}).items() if k != "concealed_kongs"})
    tiles = [
        {
            "code": t["code"],
            "box": _xyxy(t["bbox"]),
            "confidence": 0.97,
            "alternatives": [],
            "sideways": t["sideways"],
            "face_down": t["face_down"],
            "role": t["role"],
        }
        for t in SAMPLE_TRUTH["tiles"]
    ]
    # Each meld takes the first unused meld-role tiles with its codes, as the decoder names them.
    used: set[int] = set()
    melds = []
    for meld in hand["melds"]:
        indices = []
        for code in meld["tiles"]:
            k = next(
                i
                for i, t in enumerate(tiles)
                if i not in used and t["role"] == "meld" and t["code"] == code
            )
            used.add(k)
            indices.append(k)
        melds.append({**meld, "tile_indices": indices})
    return {
        "tiles": tiles,
        "melds": melds,
        "hand": hand,
        "score": score(hand, ruleset).to_json(),
        "warnings": [],
        "review": False,
        "review_reasons": [],
        "score_review": False,
        "timings_ms": {"load": 1.0},
        "models": {
            "detector": {"file": "replay"},
            "classifier": {"file": "replay"},
            "sideways": {"file": "replay"},
        },
        "sha256": sha256,
        "set": tileset,
    }


EMBEDDING = 8  # the stand-in classifier's embedding width


class ReplayClassifier:
    """What teaching asks of a classifier: a digest, and embeddings of face crops (here the
    crops' mean colour and brightness, which is enough to store and compare looks)."""

    digest = "replay"
    embedding_size = EMBEDDING

    def read_crops(
        self, crops: list[npt.NDArray[np.uint8]]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        probs = np.full((len(crops), len(CLASSES)), 1 / len(CLASSES), np.float32)
        embeddings = np.zeros((len(crops), EMBEDDING), np.float32)
        for i, crop in enumerate(crops):
            embeddings[i, :3] = crop.reshape(-1, 3).mean(axis=0) / 255
            embeddings[i, 3] = 1.0
        return probs, embeddings


def enrollment_tiles(photo: Photo) -> Tiles:
    """The standard order's five rows (flowers last) laid across the photo, each tile read
    as the face the order puts there. In a portrait photo rows 2 and 3 read the wrong way
    round (circles as bamboos), so a test can send an enrollment that does not fit."""
    width, height = photo.original_size
    rows = [list(r) for r in STANDARD_ROWS]
    if height > width:
        rows[1], rows[2] = rows[2], rows[1]
    w = width / 10
    h = min(w * 4 / 3, height / 7.5)
    corners, codes = [], []
    for r, row in enumerate(rows):
        for k, code in enumerate(row):
            x, y = w * (k + 0.5), h * (1.5 * r + 0.5)
            corners.append([[x, y], [x + w * 0.9, y], [x + w * 0.9, y + h], [x, y + h]])
            codes.append(code)
    quads = np.array(corners, np.float32)
    probs = np.full((len(codes), len(CLASSES)), 0.002, np.float32)
    for i, code in enumerate(codes):
        probs[i, CLASSES.index(code)] = 0.9
    n = len(codes)
    embeddings = np.zeros((n, EMBEDDING), np.float32)
    embeddings[np.arange(n), np.arange(n) % EMBEDDING] = 1.0
    xyxy = np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1)
    flags = np.zeros(n, bool)
    return Tiles(xyxy, quads, np.ones(n, np.float32), flags, flags, probs, embeddings=embeddings)


class ReplayRecognizer:
    def __init__(self, delay_s: float = 0.0) -> None:
        self.delay_s = delay_s
        self.calls = 0
        self.running = 0
        self.most_running = 0
        self._lock = threading.Lock()
        self.classifier = ReplayClassifier()
        self.sets_read: list[str] = []  # the set of each read with one, for tests to check

    @property
    def classifier_digest(self) -> str:
        return self.classifier.digest

    def read_tiles(
        self, data: bytes | Path, timings: Any = None, tileset: TileSet | None = None
    ) -> tuple[Photo, Tiles]:
        from vision.load import load_photo

        photo = load_photo(data)
        return photo, enrollment_tiles(photo)

    def faint_tiles(self, photo: Photo) -> Tiles:
        return Tiles.empty()  # the replayed photos' tiles are all found surely

    def recognize(
        self,
        data: bytes,
        context: Mapping[str, Any] | None = None,
        ruleset: str = "mcr",
        tileset: TileSet | None = None,
    ) -> Replayed:
        from vision.load import load_photo

        if tileset is not None:
            assert tileset.model in ("", self.classifier.digest), "the set was not re-embedded"
            self.sets_read.append(tileset.name)
        with self._lock:
            self.calls += 1
            self.running += 1
            self.most_running = max(self.most_running, self.running)
        try:
            photo = load_photo(data)
            time.sleep(self.delay_s)
            name = tileset.name if tileset is not None else None
            return Replayed(replay_body(context, ruleset, photo.sha256, name))
        finally:
            with self._lock:
                self.running -= 1


class FlowerDoubtRecognizer(ReplayRecognizer):
    """The replay, flagged only over which flower a flower tile is (the score stands)."""

    def recognize(
        self,
        data: bytes,
        context: Mapping[str, Any] | None = None,
        ruleset: str = "mcr",
        tileset: TileSet | None = None,
    ) -> Replayed:
        body = super().recognize(data, context, ruleset, tileset).to_json()
        reason = f"{WHICH_FLOWER} (flowers named right: 0.60)"
        return Replayed({**body, "review": True, "review_reasons": [reason]})


def waiting_body(body: dict[str, Any], ruleset: str) -> dict[str, Any]:
    """The sample read as if one of its two green dragons had not been there: the winning
    tile counts among the rest, and the 13 orphans wait on each of the 13 (十三面)."""
    from scoring import score

    tiles = [dict(t) for t in body["tiles"]]
    dropped = max(i for i, t in enumerate(tiles) if t["code"] == "F")
    tiles.pop(dropped)
    for tile in tiles:
        if tile["role"] == "winning":
            tile["role"] = "concealed"
    hand = {k: v for k, v in body["hand"].items() if k not in WIN_ONLY}
    concealed = [*hand["concealed"], hand.pop("winning_tile")]
    concealed.remove("F")
    hand.update(concealed=concealed, winning_tile=None)
    scored = score(hand, ruleset).to_json()
    return {**body, "tiles": tiles, "hand": hand, "score": scored, "waits": scored["waits"]}


WIN_ONLY = ("self_drawn", "last_tile", "kong_replacement", "robbing_kong")


class WaitingRecognizer(ReplayRecognizer):
    """The replay of a photo of 13 tiles, a hand waiting to win (`waiting_body`)."""

    def recognize(
        self,
        data: bytes,
        context: Mapping[str, Any] | None = None,
        ruleset: str = "mcr",
        tileset: TileSet | None = None,
    ) -> Replayed:
        body = super().recognize(data, context, ruleset, tileset).to_json()
        return Replayed(waiting_body(body, ruleset))


class BrokenRecognizer:
    """A recognizer with a bug: every call raises, to exercise the catch-all handler."""

    def recognize(
        self, data: bytes, context: Mapping[str, Any] | None = None, ruleset: str = "mcr"
    ) -> Replayed:
        raise RuntimeError("a bug in the recognizer")


def missing_models() -> ReplayRecognizer:
    raise FileNotFoundError("vision/weights/detector.onnx not found")


def create_replay_app() -> FastAPI:
    """For `uvicorn tests.api.fakes:create_replay_app --factory` (browser test, benchmark)."""
    return create_app(recognizer_factory=ReplayRecognizer, limits=Limits.from_env())


def create_flower_doubt_app() -> FastAPI:
    """The replay app whose answers doubt only which flower a flower is (browser test)."""
    return create_app(recognizer_factory=FlowerDoubtRecognizer, limits=Limits.from_env())


def create_waiting_app() -> FastAPI:
    """The replay app whose photo shows a hand waiting to win (browser test)."""
    return create_app(recognizer_factory=WaitingRecognizer, limits=Limits.from_env())


def create_no_models_app() -> FastAPI:
    """The app as it runs before vision/weights/*.onnx exist (for the browser test)."""
    return create_app(recognizer_factory=missing_models, limits=Limits.from_env())
