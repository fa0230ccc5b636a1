"""One photo's pre-labels: what the recognizer read, kept as a labeler needs it.

Built from a recognition's JSON (the contract of docs/DESIGN.md), so that anything that
answers it (the recognizer, the HTTP API, a test's fake) can pre-label.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from scoring.tiles import BACK

Json = dict[str, Any]
Box = tuple[float, float, float, float]  # x, y, w, h in the photo's pixels


@dataclass(frozen=True)
class Reading:
    """One of the classifier's top readings of a tile."""

    code: str
    p: float


@dataclass(frozen=True)
class TileLabel:
    """A tile found in the photo, with everything a labeler corrects or a trainer reads.

    `score` ranks it among the photo's boxes (COCO's evaluation sorts by it): the detector's
    confidence times the classifier's in the code. `role` is where the layout put it
    (concealed, meld, flower, stray, ...); `meld_id` the index of its meld in the photo's
    `melds`, None outside one.
    """

    code: str
    box: Box
    corners: list[list[float]]
    score: float
    top_k: list[Reading]
    sideways: bool
    face_down: bool
    role: str
    meld_id: int | None = None
    detector_score: float = 0.0

    def to_json(self) -> Json:
        out = asdict(self)
        out["box"] = list(self.box)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TileLabel:
        return cls(
            code=str(data["code"]),
            box=(float(data["box"][0]), float(data["box"][1]), *_wh(data["box"])),
            corners=[[float(x), float(y)] for x, y in data["corners"]],
            score=float(data["score"]),
            top_k=[Reading(str(r["code"]), float(r["p"])) for r in data["top_k"]],
            sideways=bool(data["sideways"]),
            face_down=bool(data["face_down"]),
            role=str(data["role"]),
            meld_id=None if data.get("meld_id") is None else int(data["meld_id"]),
            detector_score=float(data.get("detector_score", 0.0)),
        )


def _wh(box: Any) -> tuple[float, float]:
    return float(box[2]), float(box[3])


@dataclass(frozen=True)
class PhotoLabels:
    """A photo's pre-labels: `photo` is its path relative to the labelled folder (with '/'),
    `width` and `height` its size after EXIF orientation, as the boxes are measured."""

    photo: str
    width: int
    height: int
    tiles: list[TileLabel]
    hand: Json | None
    score: Json | None
    review: bool
    review_reasons: list[str]
    model_version: str
    sha256: str = ""
    melds: list[Json] = field(default_factory=list)

    @property
    def confidence(self) -> float:
        """One number for the photo: the mean of its boxes' scores (0 for none)."""
        return sum(t.score for t in self.tiles) / len(self.tiles) if self.tiles else 0.0

    def to_json(self) -> Json:
        out = asdict(self)
        out["tiles"] = [t.to_json() for t in self.tiles]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PhotoLabels:
        return cls(
            photo=str(data["photo"]),
            width=int(data["width"]),
            height=int(data["height"]),
            tiles=[TileLabel.from_json(t) for t in data["tiles"]],
            hand=data.get("hand"),
            score=data.get("score"),
            review=bool(data["review"]),
            review_reasons=[str(r) for r in data.get("review_reasons", [])],
            model_version=str(data["model_version"]),
            sha256=str(data.get("sha256", "")),
            melds=list(data.get("melds", [])),
        )


def model_version(models: Mapping[str, Any]) -> str:
    """The model files a recognition used, as one short name: `mjlens:detector=c8c2d030,...`
    (each file's SHA-256 prefix), the same for every photo the same models read."""
    parts = [
        f"{name}={str(card.get('sha256', ''))[:8]}"
        for name, card in sorted(models.items())
        if isinstance(card, Mapping)
    ]
    return "mjlens:" + ",".join(parts) if parts else "mjlens"


def photo_labels(
    photo: str, width: int, height: int, recognition: Mapping[str, Any]
) -> PhotoLabels:
    """The pre-labels of one photo from its recognition JSON."""
    melds = [dict(m) for m in recognition.get("melds") or []]
    meld_of: dict[int, int] = {}
    for k, meld in enumerate(melds):
        for i in meld.get("tile_indices") or []:
            meld_of[int(i)] = k
    tiles = []
    for i, tile in enumerate(recognition.get("tiles") or []):
        x1, y1, x2, y2 = (float(v) for v in tile["box"])
        confidence = float(tile.get("confidence", 0.0))
        detector = float(tile.get("detector_confidence", 1.0))
        top = [Reading(tile["code"], confidence)]
        top += [Reading(str(a["code"]), float(a["p"])) for a in tile.get("alternatives") or []]
        tiles.append(
            TileLabel(
                code=str(tile["code"]),
                box=(x1, y1, x2 - x1, y2 - y1),
                corners=[[float(x), float(y)] for x, y in tile.get("corners") or []],
                score=round(detector * confidence, 4),
                top_k=top,
                sideways=bool(tile.get("sideways", False)),
                face_down=bool(tile.get("face_down", False)) or tile["code"] == BACK,
                role=str(tile.get("role", "stray")),
                meld_id=meld_of.get(i),
                detector_score=detector,
            )
        )
    return PhotoLabels(
        photo=photo,
        width=width,
        height=height,
        tiles=tiles,
        hand=recognition.get("hand"),
        score=recognition.get("score"),
        review=bool(recognition.get("review", False)),
        review_reasons=[str(r) for r in recognition.get("review_reasons") or []],
        model_version=model_version(recognition.get("models") or {}),
        sha256=str(recognition.get("sha256", "")),
        melds=melds,
    )
