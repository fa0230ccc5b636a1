"""Real photos of tile faces as a face source, for EVALUATION ONLY (never in `SOURCES`).

The camerash crops (../shared/data/camerash-crops) are photos of real Hong Kong style tiles, a
design nothing is trained on. Registered under an explicit folder path by an evaluation
command (`benchmarks/recognize.py render --camerash PATH`), they let the scene engine lay real
faces out as declared wins. Nothing here copies the photos; the source is not among
`datasets.faces.SOURCES`, so `mjlens synth` and the trainers cannot pick it by default.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
from PIL import Image

from datasets.faces.base import FACE_HEIGHT, FACE_WIDTH
from datasets.faces.raster_source import RasterSource
from models.camerash import read_camerash

NAME = "camerash"
MARGIN = 0.05  # the crops hold the tile's rim: keep the face inside it


class CamerashSource(RasterSource):
    def __init__(self, root: str | Path) -> None:
        files: dict[str, list[Path]] = defaultdict(list)
        for path, code in read_camerash(root):
            files[code].append(path)
        super().__init__(NAME, "validation only (see the folder's LICENSE)", files)

    def design(self, code: str, rng: np.random.Generator) -> str:
        """Photos of many sets in one folder: no theme to name."""
        return NAME

    def _load(self, path: Path) -> np.ndarray:
        image = Image.open(path).convert("RGB")
        w, h = image.size
        mx, my = round(MARGIN * w), round(MARGIN * h)
        image = image.crop((mx, my, w - mx, h - my)).resize(
            (FACE_WIDTH, FACE_HEIGHT), Image.Resampling.LANCZOS
        )
        return np.asarray(image, dtype=np.uint8).copy()


def register(root: str | Path) -> str:
    """Make the photos under `root` the face source `camerash`; returns its name."""
    from datasets.faces import register_source

    register_source(NAME, lambda: CamerashSource(root))
    return NAME
