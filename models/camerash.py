"""The real single-tile photos (validation only): read `camerash-crops` from a path given.

The folder lives outside the repository (../shared/data/camerash-crops); nothing here copies
it. `data.csv` labels are 1-based in the dataset's own order (dots, bamboo, characters, winds,
dragons, seasons, flowers), mapped here to our tile codes.
"""

from __future__ import annotations

import csv
from pathlib import Path

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
