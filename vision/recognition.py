"""What one photo was read as, and its JSON (the recognition contract of docs/DESIGN.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scoring.hand import Hand, Waiting
from scoring.tiles import BACK, CLASSES
from vision.decode import Decoded
from vision.layout import Layout, role_of_each
from vision.load import Photo
from vision.notes import Note, messages
from vision.review import doubts_score
from vision.types import Tiles

Json = dict[str, Any]


@dataclass
class Recognition:
    """Everything read from one photo; `to_json` is the contract of DESIGN.md."""

    tiles: Tiles
    layout: Layout
    decoded: Decoded
    score: Json | None
    notes: list[Note]  # what the layout and decoding say of the reading (`warnings`)
    review: bool
    doubts: list[Note]  # the review checks that fired (`review_reasons`)
    timings_ms: dict[str, float] = field(default_factory=dict)
    models: dict[str, Json] = field(default_factory=dict)
    sha256: str = ""
    photo: Photo | None = None  # the decoded photo, for drawing; not part of the JSON
    tileset: str | None = None  # the name of the taught set the tiles were read with
    # How likely the reading is right (`vision.calibration`); None without a review model.
    p_right: float | None = None
    # Looks the reading taught its set where asked to learn (0: flagged, nothing taught);
    # None where not asked.
    learned: int | None = None

    @property
    def warnings(self) -> list[str]:
        return messages(self.notes)

    @property
    def review_reasons(self) -> list[str]:
        return messages(self.doubts)

    @property
    def all_notes(self) -> list[Note]:
        """Every note once: the review reasons first, then the other warnings."""
        seen = set(self.doubts)
        return [*self.doubts, *(note for note in self.notes if note not in seen)]

    @property
    def score_review(self) -> bool:
        """Flagged for a reason the score may be wrong for, not only which flower a flower
        is."""
        return self.review and doubts_score(self.doubts)

    @property
    def waits(self) -> list[Json] | None:
        """For a hand of 13 tiles waiting to win, the score's `waits` (each tile that
        completes it, the win on it scored on a discard and self-drawn); None otherwise."""
        if not self.decoded.waiting or self.decoded.hand is None or self.score is None:
            return None
        found: list[Json] = self.score.get("waits") or []
        return found

    def to_json(self) -> Json:
        return {
            "tiles": _tiles_json(self.tiles, self.layout, self.decoded),
            "melds": self.decoded.melds,
            "hand": hand_json(self.decoded.hand),
            "score": self.score,
            "waits": self.waits,
            "warnings": self.warnings,
            "review": self.review,
            "review_reasons": self.review_reasons,
            "notes": [note.to_json() for note in self.all_notes],
            "score_review": self.score_review,
            "p_right": None if self.p_right is None else round(self.p_right, 4),
            "confidence": round(self.decoded.confidence, 4),
            "flower_confidence": round(self.decoded.flower_confidence, 4),
            "changes": [c.to_json() for c in self.decoded.changes],
            "alternatives": [
                {"hand": hand_json(hand), "p": round(p, 4)} for hand, p in self.decoded.alternatives
            ],
            "timings_ms": {k: round(v, 1) for k, v in self.timings_ms.items()},
            "models": self.models,
            "sha256": self.sha256,
            "set": self.tileset,
            **({} if self.learned is None else {"learned": self.learned}),
        }


def hand_json(hand: Hand | Waiting | None) -> Json | None:
    """The Hand JSON of a reading: a hand waiting to win has `winning_tile` null, and a hand
    whose flower tiles were read and none found says so, `"flowers": []` (a bare count is
    what the player told, no flower tile in the photo)."""
    if hand is None:
        return None
    out = hand.to_json()
    if not hand.flower_count:
        out["flowers"] = []
    if isinstance(hand, Waiting):
        out["winning_tile"] = None
    return out


def _tiles_json(tiles: Tiles, found: Layout, decoded: Decoded) -> list[Json]:
    roles = role_of_each(found, len(tiles))
    out = []
    for i in range(len(tiles)):
        code = decoded.codes[i]
        probs = tiles.probs[i]
        order = np.argsort(-probs)
        alternatives = [
            {"code": CLASSES[k], "p": round(float(probs[k]), 4)}
            for k in order[:4]
            if CLASSES[k] != code and probs[k] >= 0.01
        ][:3]
        out.append(
            {
                "code": code,
                "box": [round(float(v), 1) for v in tiles.xyxy[i]],
                # The face's corners (TL, TR, BR, BL as read): what a correction teaches a set.
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in tiles.corners[i]],
                "confidence": round(float(probs[CLASSES.index(code)]), 4),
                "alternatives": alternatives,
                "sideways": bool(tiles.sideways[i]),
                "face_down": bool(tiles.face_down[i] or code == BACK),
                "role": roles[i],
                "detector_confidence": round(float(tiles.confidence[i]), 4),
            }
        )
    return out
