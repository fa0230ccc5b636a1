"""Real photos of tile faces (camerash crops), EVALUATION ONLY: their labels and a face source.

The crops (../shared/data/camerash-crops, outside the repository; nothing here copies them)
are photos of real Hong Kong style tiles, a design nothing is trained on. `read_camerash`
lists them with our tile codes (`data.csv` labels are 1-based in the dataset's own order:
dots, bamboo, characters, winds, dragons, seasons, flowers), for the benchmarks and the
trainers' validation. Registered under an explicit folder path by an evaluation command
(`benchmarks/recognize.py render --camerash PATH`), they are also a face source that lets
the scene engine lay real faces out as declared wins; the source is not among
`datasets.faces.SOURCES`, so `mjlens synth` and the trainers cannot pick it by default.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import numpy as np
from PIL import Image

from datasets.faces.base import FACE_HEIGHT, FACE_WIDTH
from datasets.faces.raster_source import RasterSource

NAME = "camerash"
MARGIN = 0.05  # the crops hold the tile's rim: keep the face inside it

# 1-based camerash label -> tile code (see the folder's README).
_ORDER = (
    [f"{n}p" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + [f"{n}m" for n in range(1, 10)]
    + ["E", "S", "W", "N", "C", "F", "P"]
    + ["5h", "6h", "7h", "8h"]  # spring summer autumn winter
    + ["1h", "2h", "3h", "4h"]  # plum orchid chrysanthemum bamboo
)
LABEL_TO_CODE = {index + 1: code for index, code in enumerate(_ORDER)}
# Crops whose data.csv label names another face than the one photographed, read here as
# what they show (checked by eye): 133.jpg shows eight blue dots,
# labelled 8 of characters; 350.jpg nine dots and a corner 9, labelled 8 of dots. Every
# classifier since the first read them so, and the real-face wins that drew them counted
# a right reading wrong.
RELABELLED = {"133.jpg": "8p", "350.jpg": "9p"}


def read_camerash(root: str | Path) -> list[tuple[Path, str]]:
    """(image path, tile code) per listed photo, duplicates in data.csv dropped, the crops
    in RELABELLED read as the faces they show."""
    root = Path(root)
    seen: set[str] = set()
    items: list[tuple[Path, str]] = []
    with open(root / "data.csv", newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            name = row["image-name"]
            if name in seen:
                continue
            seen.add(name)
            code = RELABELLED.get(name, LABEL_TO_CODE[int(row["label"])])
            items.append((root / "images" / name, code))
    return items


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
