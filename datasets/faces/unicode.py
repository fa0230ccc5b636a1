"""The Unicode Mahjong Tiles block U+1F000-U+1F02B, drawn by Noto Sans Symbols 2, Symbola,
Hanazono Mincho and GL-MahjongTile.

Each glyph is a whole tile with an outline; we keep what is inside the outline as the face
and print it on a light face, mostly in tile colours (the font itself has none).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw

from datasets.faces.base import FACE_HEIGHT, FACE_WIDTH, ArtMissing, check_code
from datasets.faces.fonts import FontFace, load_font, symbol_fonts
from datasets.faces.paths import FETCH_HINT

# The block's order (Unicode chart "Mahjong Tiles"): winds, dragons, characters, bamboos,
# circles, then plum orchid BAMBOO CHRYSANTHEMUM (not the 梅蘭菊竹 order of our codes), seasons.
_ORDER = (
    ["E", "S", "W", "N", "C", "F", "P"]
    + [f"{n}m" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + [f"{n}p" for n in range(1, 10)]
    + ["1h", "2h", "4h", "3h", "5h", "6h", "7h", "8h"]
)
CODEPOINT = {code: 0x1F000 + i for i, code in enumerate(_ORDER)}  # 1F02A joker, 1F02B back unused
LICENSE = (
    "OFL-1.1 (Noto Sans Symbols 2); Symbola: free for any use (fonts-symbola); "
    "Hanazono: its own free licence or OFL-1.1 (fonts-hanazono); "
    "GL-MahjongTile (Gutenberg Labo): free software, unlimited permission to use, copy and "
    "distribute (from the PyPI package mjx)"
)

_INKS = [(20, 20, 20), (20, 40, 110), (15, 80, 40), (140, 20, 25)]
_RENDER_SIZE = 400


class UnicodeSource:
    name = "unicode"
    license = LICENSE
    codes = frozenset(CODEPOINT)

    def __init__(self) -> None:
        self.fonts = symbol_fonts()
        if not self.fonts:
            raise ArtMissing(f"no Noto Sans Symbols 2 / Symbola font: {FETCH_HINT}")

    def face(self, code: str, rng: np.random.Generator) -> np.ndarray:
        check_code(self, code)
        font = self.fonts[int(rng.integers(len(self.fonts)))]
        grey = glyph_face_mask(font, code)
        mask = grey.astype(np.float32)[:, :, None] / 255.0
        background = np.array([248, 246, 238]) + rng.integers(-8, 6, 3)
        if rng.random() < 0.7:  # printed in a set's colours, as real tiles are
            ink = _colour_ink(code, grey, rng)
        else:
            ink = np.empty((*grey.shape, 3), np.float32)
            ink[:] = _INKS[int(rng.integers(len(_INKS)))]
        face = background * (1 - mask) + ink * mask
        return np.asarray(np.clip(face, 0, 255), dtype=np.uint8)


_DARK = [(20, 20, 20), (20, 40, 120)]
_RED, _GREEN, _BLUE = (190, 25, 35), (20, 120, 55), (25, 55, 160)


def _colour_ink(code: str, grey: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Per-pixel ink for a glyph: red 萬 under a dark numeral, red 中, green 發, coloured coins
    and canes; each connected stroke group of dots, bamboo and bonus tiles gets one colour."""
    h, w = grey.shape
    ink = np.empty((h, w, 3), np.float32)
    dark = np.array(_DARK[int(rng.integers(len(_DARK)))], np.float32)
    if code.endswith("m"):
        ink[:] = _RED
        rows = np.nonzero((grey > 64).any(axis=1))[0]
        split = int(rows.min() + 0.38 * (rows.max() - rows.min())) if len(rows) else h // 2
        ink[:split] = dark
    elif code in ("C", "F", "P"):
        ink[:] = {"C": _RED, "F": _GREEN, "P": _BLUE}[code]
    elif code in ("E", "S", "W", "N"):
        ink[:] = dark if rng.random() < 0.6 else np.array(_BLUE, np.float32)
    else:  # dots, bamboo, flowers: one colour per blob
        palette = [_BLUE, _GREEN, _RED] if code.endswith("p") else [_GREEN, _GREEN, _BLUE, _RED]
        n, labels = cv2.connectedComponents((grey > 64).astype(np.uint8))
        colours = np.array([palette[int(rng.integers(len(palette)))] for _ in range(n)], np.float32)
        # anti-aliased edge pixels outside every blob take the colour of the nearest stroke
        labels = cv2.dilate(labels.astype(np.float32), np.ones((3, 3), np.uint8)).astype(np.int32)
        ink[:] = colours[labels]
    return ink


@lru_cache(maxsize=128)
def glyph_face_mask(font: FontFace, code: str) -> np.ndarray:
    """The ink inside the glyph's tile outline, as an L mask of face size (cached)."""
    pil_font = load_font(font, _RENDER_SIZE)
    char = chr(CODEPOINT[code])
    left, top, right, bottom = pil_font.getbbox(char)
    img = Image.new("L", (int(right - left) + 8, int(bottom - top) + 8), 0)
    ImageDraw.Draw(img).text((4 - left, 4 - top), char, font=pil_font, fill=255)
    ink = np.asarray(img) > 127
    ys, xs = np.nonzero(ink)
    ink = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    inside = _inside_outline(ink)
    grey = np.asarray(img)[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    y0, y1, x0, x1 = inside
    face = grey[y0:y1, x0:x1].copy()
    face = _drop_border_remnants(face)
    margin_x, margin_y = int(FACE_WIDTH * 0.06), int(FACE_HEIGHT * 0.05)
    inner = cv2.resize(
        face, (FACE_WIDTH - 2 * margin_x, FACE_HEIGHT - 2 * margin_y), interpolation=cv2.INTER_AREA
    )
    out = np.zeros((FACE_HEIGHT, FACE_WIDTH), np.uint8)
    out[margin_y : FACE_HEIGHT - margin_y, margin_x : FACE_WIDTH - margin_x] = inner
    return out


def _inside_outline(ink: np.ndarray) -> tuple[int, int, int, int]:
    """Rows/columns just inside the tile outline: skip the outline's stroke on each side."""
    h, w = ink.shape
    row, col = ink[h // 2], ink[:, w // 2]

    def stroke(line: np.ndarray) -> int:
        n = 0
        while n < len(line) and line[n]:
            n += 1
        return n

    t = max(stroke(row), stroke(row[::-1]), stroke(col), stroke(col[::-1]))
    pad = t + max(2, int(0.02 * w))
    return pad, h - pad, pad, w - pad


def _drop_border_remnants(face: np.ndarray) -> np.ndarray:
    """Erase what is left of the outline: small ink in the crop's corners (its rounded
    corners) and tall thin bars along the sides (the inner frame Hanazono draws round its
    characters, which no other face of the set has: a cue for the suit that real sets lack).

    Only those go: some glyphs (Symbola's bird, its bamboo) touch the outline.
    """
    h, w = face.shape
    n, labels, stats, _ = cv2.connectedComponentsWithStats((face > 64).astype(np.uint8))
    corner = 0.12
    for label in range(1, n):
        x, y, bw, bh, _ = stats[label]
        near_x = x + bw <= corner * w or x >= (1 - corner) * w
        near_y = y + bh <= corner * h or y >= (1 - corner) * h
        side_bar = (x <= 0.1 * w or x + bw >= 0.9 * w) and bh > 0.6 * h and bw < 0.15 * w
        if (near_x and near_y) or side_bar:
            face[labels == label] = 0
    return face
