"""A stand-in recognizer for the labeling tests: the real photo loader (bad files fail as
in production), then two tiles placed from the photo's size, so that each photo's labels
are known without the models. It tests the batch and the formats, never recognition."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.load import Photo, load_photo


class Read:
    def __init__(self, photo: Photo, body: dict[str, Any]) -> None:
        self.photo = photo
        self.body = body

    def to_json(self) -> dict[str, Any]:
        return self.body


def tiles_for(width: int, height: int) -> list[dict[str, Any]]:
    """Two tiles, a 5p in a pung-less hand and a claimed, sideways 7s in meld 0."""
    w, h = width / 10, height / 8
    return [
        {
            "code": "5p",
            "box": [w, h, 2 * w, 2.5 * h],
            "corners": [[w, h], [2 * w, h], [2 * w, 2.5 * h], [w, 2.5 * h]],
            "confidence": 0.9,
            "alternatives": [{"code": "6p", "p": 0.08}],
            "sideways": False,
            "face_down": False,
            "role": "concealed",
            "detector_confidence": 0.95,
        },
        {
            "code": "7s",
            "box": [4 * w, 3 * h, 5.5 * w, 4 * h],
            "corners": [[4 * w, 3 * h], [5.5 * w, 3 * h], [5.5 * w, 4 * h], [4 * w, 4 * h]],
            "confidence": 0.8,
            "alternatives": [],
            "sideways": True,
            "face_down": False,
            "role": "meld",
            "detector_confidence": 0.9,
        },
    ]


class FakeRecognizer:
    def __init__(self) -> None:
        self.models = {"detector": {"sha256": "d" * 16}, "classifier": {"sha256": "c" * 16}}
        self.read: list[str] = []

    def recognize(
        self, data: Any, context: Any = None, ruleset: str = "mcr", tileset: Any = None
    ) -> Read:
        photo = load_photo(data)
        if isinstance(data, Path):
            self.read.append(data.name)
        width, height = photo.original_size
        body = {
            "tiles": tiles_for(width, height),
            "melds": [{"type": "chow", "tiles": ["7s", "8s", "9s"], "tile_indices": [1]}],
            "hand": None,
            "score": None,
            "review": True,
            "review_reasons": ["no legal hand"],
            "models": self.models,
            "sha256": "ab" * 32,
        }
        return Read(photo, body)


def write_photo(path: Path, seed: int, size: tuple[int, int] = (160, 120)) -> Path:
    """A small noisy JPEG (or PNG, WebP by suffix) of the given width and height."""
    path.parent.mkdir(parents=True, exist_ok=True)
    image = np.random.default_rng(seed).integers(0, 255, (size[1], size[0], 3), np.uint8)
    assert cv2.imwrite(str(path), image)
    return path
