"""Small pixel-art tiles from two old X11 games, enlarged: another hand's drawing of every face.

- xshisen's `s1` tiles (Takayuki Akiyama, 2002; BSD-2-clause, its notice below): the 34
  suit and honour faces, 30 x 38 pixels in three or four colours, red bamboo, a blank
  white dragon; Debian `xshisen`.
- The flowers and seasons of Julian Bradfield's `mah-jong` (25 x 35, a plant with the
  number and name in the corners, "based on a real tile set", public domain); Debian
  `mah-jong`. Its suit and honour tiles are not used: they come from xmahjongg's art under a
  non-profit-only licence.

Both are XPM files, read here (Pillow cannot read all of them). Enlarged with a cubic filter,
the pixels soften into a coarse print: shapes no vector source draws.
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np

from datasets.faces.base import FACE_HEIGHT, FACE_WIDTH, ArtMissing, check_code
from datasets.faces.paths import FETCH_HINT, art_dir

LICENSE = (
    "xshisen s1 tiles: BSD-2-clause, Copyright 2002 Takayuki Akiyama <taco3@ybb.ne.jp>; "
    "mah-jong flowers and seasons: public domain (J. C. Bradfield)"
)
XSHISEN_DIR = "pixel/usr/share/games/xshisen/s1"
BRADFIELD_DIR = "pixel/usr/share/mah-jong/tiles-v1"

_HONOURS = {"ton": "E", "nan": "S", "sha": "W", "pei": "N", "chun": "C", "hatsu": "F", "haku": "P"}
# xshisen's m / p / s are characters (manzu), dots (pinzu), bamboo (souzu), as ours.
FILES: dict[str, str] = {
    **{code: f"{XSHISEN_DIR}/{stem}.xpm" for stem, code in _HONOURS.items()},
    **{f"{n}{suit}": f"{XSHISEN_DIR}/{suit}{n}.xpm" for suit in "mps" for n in range(1, 10)},
    # Bradfield: nF the flowers 梅蘭菊竹, nS the seasons 春夏秋冬.
    **{f"{n}h": f"{BRADFIELD_DIR}/{n}F.xpm" for n in range(1, 5)},
    **{f"{n + 4}h": f"{BRADFIELD_DIR}/{n}S.xpm" for n in range(1, 5)},
}


def read_xpm(path: Path) -> np.ndarray:
    """An XPM image as RGB uint8 (colours given as #RGB hex of 2 or 4 digits a channel;
    `None`, the transparent colour, as white)."""
    strings = re.findall(r'"((?:[^"\\]|\\.)*)"', path.read_text(encoding="latin-1"))
    width, height, ncolours, cpp = (int(v) for v in strings[0].split()[:4])
    palette: dict[str, tuple[int, int, int]] = {}
    for line in strings[1 : 1 + ncolours]:
        key, words = line[:cpp], line[cpp:].split()
        value = words[words.index("c") + 1] if "c" in words else "None"
        palette[key] = _rgb(value)
    rows = strings[1 + ncolours : 1 + ncolours + height]
    image = np.empty((height, width, 3), np.uint8)
    for y, row in enumerate(rows):
        for x in range(width):
            image[y, x] = palette[row[x * cpp : (x + 1) * cpp]]
    return image


def _rgb(value: str) -> tuple[int, int, int]:
    if not value.startswith("#"):
        return (255, 255, 255)  # None (transparent), or a colour name: the tile's ground
    digits = value[1:]
    step = len(digits) // 3
    r, g, b = (int(digits[i * step : i * step + 2], 16) for i in range(3))
    return (r, g, b)


class PixelSource:
    name = "pixel"
    license = LICENSE

    def __init__(self) -> None:
        root = art_dir()
        self._paths = {code: root / rel for code, rel in FILES.items() if (root / rel).is_file()}
        if not self._paths:
            raise ArtMissing(f"no xshisen / mah-jong pixmaps under {root / 'pixel'}: {FETCH_HINT}")
        self.codes = frozenset(self._paths)
        self._cache: dict[str, np.ndarray] = {}

    def face(self, code: str, rng: np.random.Generator) -> np.ndarray:
        check_code(self, code)
        if code not in self._cache:
            art = read_xpm(self._paths[code])
            self._cache[code] = cv2.resize(
                art, (FACE_WIDTH, FACE_HEIGHT), interpolation=cv2.INTER_CUBIC
            )
        return self._cache[code].copy()
