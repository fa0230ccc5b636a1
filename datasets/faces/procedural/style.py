"""One random tile-set design: palette, fonts, proportions, corner indices, regional habits.

Every `face()` call draws a fresh Style, so no two faces need share a design; within one
face every element uses the same style, as a printed set would.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from datasets.faces.fonts import FontFace, cjk_fonts
from datasets.faces.procedural.canvas import RGB


@dataclass(frozen=True)
class Style:
    background: RGB
    blue: RGB
    green: RGB
    red: RGB
    black: RGB
    font: FontFace  # big glyphs: numerals, 萬, winds, dragons
    small_font: FontFace  # corner indices and flower names
    stroke: float  # line width scale for geometry (1 = medium)
    margin_x: float  # fraction of the face width left blank on each side
    margin_y: float
    corner_index: str  # "none" | "arabic" | "chinese": Hong Kong sets print small indices
    index_right: bool  # index in the top-right instead of the top-left corner
    index_free: bool  # index in a gap of the pattern instead of a corner strip
    index_big: bool  # a large index beside the pattern, which moves over (a column, not a strip)
    japanese: bool  # riichi habits: red fives, blank white dragon
    glyph_stroke: int  # extra pixels of stroke on glyphs (heavier print)
    engrave_depth: float  # 0: flat print; else how dark the groove rims are
    ink_fade: float  # 0: fresh ink; else how far it has faded towards the face colour
    ink_blur: float  # 0: crisp print; else Gaussian sigma (supersampled pixels) of soft print
    # Digital and cartoon art (screen tile sets, novelty sets): shapes outlined in a dark
    # line, casting a drop shadow, their ink shaded top to bottom; 0 for none.
    ink_outline: int  # supersampled pixels
    ink_shadow: int  # supersampled pixels down and right
    ink_gradient: float  # brightness swing, top to bottom

    def colour(self, role: str) -> RGB:
        return {"b": self.blue, "g": self.green, "r": self.red, "k": self.black}[role]


def _jitter(rng: np.random.Generator, base: tuple[int, int, int], amount: int) -> RGB:
    c = np.clip(np.asarray(base) + rng.integers(-amount, amount + 1, 3), 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]))


def _background(rng: np.random.Generator) -> RGB:
    """Face white: one brightness shift for all channels and a little tint, as real plastic."""
    base = np.asarray(_BACKGROUNDS[int(rng.integers(len(_BACKGROUNDS)))])
    c = np.clip(base + rng.integers(-6, 5) + rng.integers(-2, 3, 3), 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]))


def pick_shade(rng: np.random.Generator, options: list[tuple[int, int, int]], amount: int) -> RGB:
    """One of `options`, each channel shifted by up to `amount`: a set's own shade."""
    return _jitter(rng, options[int(rng.integers(len(options)))], amount)


# Colour families seen on real sets; each set prints its own shade of each.
_BACKGROUNDS = [(250, 250, 246), (246, 242, 228), (240, 234, 214), (236, 238, 232), (250, 246, 236)]
_BLUES = [(20, 50, 150), (30, 70, 170), (10, 30, 100), (20, 90, 160), (40, 60, 140)]
_GREENS = [(10, 110, 50), (20, 130, 70), (0, 90, 60), (40, 120, 40), (10, 100, 90)]
_REDS = [(190, 20, 30), (210, 40, 40), (170, 20, 40), (200, 60, 30), (220, 30, 60)]
_BLACKS = [(20, 20, 20), (35, 30, 30), (15, 20, 40), (40, 40, 35)]


def random_style(rng: np.random.Generator) -> Style:
    faces, weights = cjk_fonts()
    font = faces[int(rng.choice(len(faces), p=weights))]
    small_font = font if rng.random() < 0.5 else faces[int(rng.choice(len(faces), p=weights))]
    japanese = bool(rng.random() < 0.25)
    corner = (
        "none" if japanese else str(rng.choice(["none", "arabic", "chinese"], p=[0.45, 0.4, 0.15]))
    )
    return Style(
        background=_background(rng),
        blue=pick_shade(rng, _BLUES, 20),
        green=pick_shade(rng, _GREENS, 20),
        red=pick_shade(rng, _REDS, 20),
        black=pick_shade(rng, _BLACKS, 10),
        font=font,
        small_font=small_font,
        stroke=float(rng.uniform(0.7, 1.5)),
        margin_x=float(rng.uniform(0.06, 0.14)),
        margin_y=float(rng.uniform(0.05, 0.11)),
        corner_index=corner,
        index_right=bool(rng.random() < 0.3),
        index_free=bool(rng.random() < 0.3),
        japanese=japanese,
        glyph_stroke=int(rng.choice([0, 0, 1, 2, 3, 4])),  # some sets print heavy
        engrave_depth=float(rng.uniform(0.1, 0.35)) if rng.random() < 0.5 else 0.0,
        ink_fade=float(rng.uniform(0.08, 0.3)) if rng.random() < 0.2 else 0.0,
        ink_blur=float(rng.uniform(0.6, 1.6)) if rng.random() < 0.2 else 0.0,
        ink_outline=int(rng.integers(2, 5)) if rng.random() < 0.15 else 0,
        ink_shadow=int(rng.integers(2, 6)) if rng.random() < 0.12 else 0,
        ink_gradient=float(rng.uniform(0.12, 0.3)) if rng.random() < 0.15 else 0.0,
        index_big=bool(rng.random() < 0.2),
    )
