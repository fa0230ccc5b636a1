"""Flower and season faces drawn as icons: a bold emblem, a word, maybe a card frame.

Not every set paints a plant with 梅蘭菊竹 beside it. Western and modern sets print an
emblem (a sun, a snowflake, a maple leaf, a butterfly, a tree, one big blossom) with the
name spelled out or cut short (PLUM, ORC, SPR, WIN), and some print a picture card: a
tinted panel framed in a darker ink with a numeral in its corner. A classifier that saw only
plants with Chinese labels reads these as suit tiles or dragons. All the art here is drawn
from scratch; the only font is a CJK font the faces sources already use (it has Latin).
"""

from __future__ import annotations

import math

import numpy as np
from PIL import ImageDraw

from datasets.faces.fonts import cjk_fonts, load_font
from datasets.faces.procedural.layout import CHINESE_NUMERALS

Rng = np.random.Generator
Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]

WORDS = (  # per code 1h..8h: the names sets print, in full and cut short
    ("PLUM", "PLUM BLOSSOM"),
    ("ORCHID", "ORC"),
    ("MUM", "CHRYS", "CHRYSANTHEMUM"),
    ("BAMBOO", "BAM"),
    ("SPRING", "SPR"),
    ("SUMMER", "SUM"),
    ("AUTUMN", "AUT", "FALL"),
    ("WINTER", "WIN"),
)
EMBLEMS = ("sun", "snowflake", "leaf", "butterfly", "tree", "bloom", "cloud")
VIVID: tuple[Colour, ...] = (
    (210, 30, 30),
    (240, 170, 20),
    (30, 140, 50),
    (40, 80, 190),
    (230, 110, 20),
    (150, 40, 140),
    (30, 30, 30),
    (110, 170, 220),
    (200, 170, 60),
)
TINTS: tuple[Colour, ...] = ((225, 210, 160), (170, 200, 240), (200, 230, 190), (240, 200, 200))


def _vivid(rng: Rng) -> Colour:
    r, g, b = VIVID[int(rng.integers(len(VIVID)))]
    j = rng.integers(-20, 21, 3)
    return (
        int(np.clip(r + j[0], 0, 255)),
        int(np.clip(g + j[1], 0, 255)),
        int(np.clip(b + j[2], 0, 255)),
    )


def _darker(c: Colour, k: float = 0.6) -> Colour:
    return (int(c[0] * k), int(c[1] * k), int(c[2] * k))


def draw_icon_face(draw: ImageDraw.ImageDraw, rng: Rng, index: int, w: int, h: int) -> None:
    """Flower `index` 0-7 as an emblem face on an already painted paper of w x h."""
    fonts, weights = cjk_fonts()
    font_face = fonts[rng.choice(len(fonts), p=np.asarray(weights))]
    rank = index % 4
    word_place = str(rng.choice(["below", "above", "none"], p=[0.5, 0.2, 0.3]))
    top = h * (0.22 if word_place == "above" else 0.06)
    bottom = h * (0.78 if word_place == "below" else 0.94)
    pic: Box = (w * 0.08, top, w * 0.92, bottom)
    if rng.random() < 0.3:  # a picture card: a tinted, framed panel, the numeral inside it
        tint = TINTS[int(rng.integers(len(TINTS)))]
        border = _darker(tint, float(rng.uniform(0.35, 0.6)))
        draw.rounded_rectangle(
            [pic[0], pic[1], pic[2], pic[3]], radius=w * 0.06, fill=tint, outline=border, width=3
        )
        numeral = CHINESE_NUMERALS[rank] if rng.random() < 0.6 else str(rank + 1)
        font = load_font(font_face, int(w * 0.2))
        draw.text((pic[0] + w * 0.05, pic[1] + h * 0.02), numeral, font=font, fill=border)
        ink = _darker(tint, float(rng.uniform(0.45, 0.75)))
        inner = (pic[0] + w * 0.12, pic[1] + h * 0.12, pic[2] - w * 0.05, pic[3] - h * 0.04)
        _emblem(draw, rng, str(rng.choice(EMBLEMS)), inner, ink, ink)
    else:
        _emblem(draw, rng, str(rng.choice(EMBLEMS)), pic, _vivid(rng), _vivid(rng))
        if rng.random() < 0.5:  # a corner numeral, as Hong Kong sets print it
            font = load_font(font_face, int(w * rng.uniform(0.16, 0.24)))
            x = w * 0.06 if rng.random() < 0.5 else w * 0.76
            draw.text((x, h * 0.02), str(rank + 1), font=font, fill=_vivid(rng))
    if word_place != "none":
        words = WORDS[index]
        word = str(words[int(rng.integers(len(words)))])
        if rng.random() < 0.2:
            word = word.title()
        size = int(min(h * 0.16, w * 1.5 / max(len(word), 3)))
        font = load_font(font_face, size)
        x0, _, x1, _ = draw.textbbox((0, 0), word, font=font)
        y = h * 0.8 if word_place == "below" else h * 0.03
        draw.text(((w - (x1 - x0)) / 2, y), word, font=font, fill=_vivid(rng))


def _emblem(
    draw: ImageDraw.ImageDraw, rng: Rng, kind: str, box: Box, ink: Colour, accent: Colour
) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = min(x1 - x0, y1 - y0) / 2 * float(rng.uniform(0.75, 0.95))
    width = max(2, int(r * rng.uniform(0.06, 0.12)))
    if kind == "sun":
        rays = int(rng.integers(8, 17))
        for k in range(rays):
            a = 2 * math.pi * k / rays
            draw.line(
                [
                    (cx + r * 0.55 * math.cos(a), cy + r * 0.55 * math.sin(a)),
                    (cx + r * math.cos(a), cy + r * math.sin(a)),
                ],
                fill=accent,
                width=width,
            )
        c = r * 0.4
        draw.ellipse([cx - c, cy - c, cx + c, cy + c], fill=ink)
    elif kind == "snowflake":
        for k in range(6):
            a = math.pi * k / 3
            ex, ey = cx + r * math.cos(a), cy + r * math.sin(a)
            draw.line([(cx, cy), (ex, ey)], fill=ink, width=width)
            for t in (0.45, 0.7):
                bx, by = cx + r * t * math.cos(a), cy + r * t * math.sin(a)
                for s in (-1, 1):
                    b = a + s * 0.7
                    draw.line(
                        [(bx, by), (bx + r * 0.25 * math.cos(b), by + r * 0.25 * math.sin(b))],
                        fill=ink,
                        width=max(1, width - 1),
                    )
    elif kind == "leaf":  # a maple-like leaf: a star of lobes on a short stem
        lobes = int(rng.choice([5, 7]))
        pts = []
        for k in range(lobes * 2):
            a = -math.pi / 2 + math.pi * k / lobes
            rr = r if k % 2 == 0 else r * float(rng.uniform(0.35, 0.5))
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a) * 0.95))
        draw.polygon(pts, fill=ink)
        draw.line([(cx, cy), (cx + r * 0.1, cy + r * 1.05)], fill=_darker(ink), width=width)
    elif kind == "butterfly":
        for s in (-1, 1):
            draw.ellipse(
                [
                    cx + s * r * 0.05 - (s < 0) * r,
                    cy - r * 0.8,
                    cx + s * r * 0.05 + (s > 0) * r,
                    cy + r * 0.05,
                ],
                fill=ink,
            )
            draw.ellipse(
                [
                    cx + s * r * 0.05 - (s < 0) * r * 0.7,
                    cy - r * 0.05,
                    cx + s * r * 0.05 + (s > 0) * r * 0.7,
                    cy + r * 0.7,
                ],
                fill=accent,
            )
            draw.line([(cx, cy - r * 0.6), (cx + s * r * 0.35, cy - r)], fill=_darker(ink), width=2)
        draw.line([(cx, cy - r * 0.6), (cx, cy + r * 0.6)], fill=_darker(ink, 0.3), width=width + 2)
    elif kind == "tree":
        draw.line([(cx, y1), (cx, cy)], fill=_darker(accent, 0.5), width=width * 2)
        for _ in range(int(rng.integers(4, 9))):
            bx = cx + r * float(rng.uniform(-0.6, 0.6))
            by = cy - r * float(rng.uniform(0.0, 0.6))
            br = r * float(rng.uniform(0.25, 0.45))
            colour = ink if rng.random() < 0.7 else accent
            draw.ellipse([bx - br, by - br, bx + br, by + br], fill=colour)
    elif kind == "bloom":  # one big flower head filling the face
        petals = int(rng.integers(5, 13))
        for k in range(petals):
            a = 2 * math.pi * k / petals
            px, py = cx + r * 0.55 * math.cos(a), cy + r * 0.55 * math.sin(a)
            pr = r * float(rng.uniform(0.3, 0.45))
            draw.ellipse(
                [px - pr, py - pr, px + pr, py + pr], fill=ink, outline=_darker(ink), width=2
            )
        c = r * 0.25
        draw.ellipse([cx - c, cy - c, cx + c, cy + c], fill=accent)
    else:  # cloud with rain
        for dx, dy, rr in ((-0.4, 0.0, 0.35), (0.0, -0.2, 0.45), (0.4, 0.0, 0.35)):
            draw.ellipse(
                [
                    cx + dx * r - rr * r,
                    cy + dy * r - rr * r,
                    cx + dx * r + rr * r,
                    cy + dy * r + rr * r,
                ],
                outline=ink,
                width=width,
            )
        for k in range(int(rng.integers(3, 6))):
            x = cx + r * (-0.5 + 0.25 * k)
            draw.line([(x, cy + r * 0.45), (x - r * 0.1, cy + r * 0.85)], fill=accent, width=width)
