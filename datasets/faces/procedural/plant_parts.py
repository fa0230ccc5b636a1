"""The parts paintings are built from: a brush (inks, weight), blossoms, leaves, roots.

Blossoms come in the kinds tile painters use: the Hong Kong rose (scalloped rings), the
five-petal plum, the rayed chrysanthemum and the side-on peony cup.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from datasets.faces.procedural.canvas import RGB, Canvas
from datasets.faces.procedural.layout import Box
from datasets.faces.procedural.style import Style

Point = tuple[float, float]


@dataclass(frozen=True)
class Brush:
    """The inks and line weight one painting uses."""

    stem: RGB
    leaf: RGB
    petal: RGB
    centre: RGB
    roots: RGB
    width: float  # main stroke width in canvas pixels
    filled_leaves: bool


def make_brush(style: Style, box: Box, rng: np.random.Generator) -> Brush:
    w = box[2] - box[0]
    petal_role = str(rng.choice(["r", "b", "r", "k"], p=[0.55, 0.2, 0.15, 0.1]))
    return Brush(
        stem=style.colour("g" if rng.random() < 0.8 else "k"),
        leaf=style.colour("g"),
        petal=style.colour(petal_role),
        centre=style.colour(str(rng.choice(["r", "k", "b", "g"]))),
        roots=style.colour("b" if rng.random() < 0.6 else "k"),
        width=max(2.5, w * float(rng.uniform(0.025, 0.045)) * style.stroke),
        filled_leaves=bool(rng.random() < 0.5),
    )


def blossom(
    canvas: Canvas,
    style: Style,
    brush: Brush,
    x: float,
    y: float,
    r: float,
    rng: np.random.Generator,
    kind: str | None = None,
) -> None:
    """One flower head of radius r at (x, y); a random kind unless `kind` is given."""
    kind = kind or str(rng.choice(["rose", "five", "chrys", "peony"], p=[0.4, 0.25, 0.15, 0.2]))
    _BLOSSOMS[kind](canvas, style, brush, x, y, r, rng)


def _rose(
    canvas: Canvas,
    style: Style,
    brush: Brush,
    x: float,
    y: float,
    r: float,
    rng: np.random.Generator,
) -> None:
    """Concentric scalloped rings, as most Hong Kong flower tiles paint it."""
    lw = max(2.0, brush.width * 0.8)
    bumps = int(rng.integers(6, 10))
    for k in range(bumps):
        a = 2 * math.pi * k / bumps
        canvas.circle(
            x + r * 0.72 * math.cos(a), y + r * 0.72 * math.sin(a), r * 0.34, fill=brush.petal
        )
    canvas.circle(x, y, r * 0.8, fill=brush.petal)
    canvas.circle(x, y, r * 0.8 - lw, fill=style.background)
    canvas.circle(x, y, r * 0.5, outline=brush.petal, width=lw)
    canvas.circle(x, y, r * 0.18, fill=brush.petal)


def _five_petals(
    canvas: Canvas,
    style: Style,
    brush: Brush,
    x: float,
    y: float,
    r: float,
    rng: np.random.Generator,
) -> None:
    """Plum blossom: five round petals, filled or outlined."""
    lw = max(2.0, brush.width * 0.8)
    rot = float(rng.uniform(0, 2 * math.pi))
    outline = rng.random() < 0.5
    for k in range(5):
        a = rot + 2 * math.pi * k / 5
        px, py = x + r * 0.55 * math.cos(a), y + r * 0.55 * math.sin(a)
        if outline:
            canvas.circle(px, py, r * 0.45, fill=style.background, outline=brush.petal, width=lw)
        else:
            canvas.circle(px, py, r * 0.45, fill=brush.petal)
    canvas.circle(x, y, r * 0.22, fill=brush.centre)


def _rays(
    canvas: Canvas,
    style: Style,
    brush: Brush,
    x: float,
    y: float,
    r: float,
    rng: np.random.Generator,
) -> None:
    """Chrysanthemum: many thin rays round a centre."""
    n = int(rng.integers(14, 22))
    for k in range(n):
        a = 2 * math.pi * k / n
        canvas.line(
            [(x, y), (x + r * math.cos(a), y + r * math.sin(a))], brush.petal, max(2.0, r * 0.16)
        )
    canvas.circle(x, y, r * 0.3, fill=brush.centre)


def _peony(
    canvas: Canvas,
    style: Style,
    brush: Brush,
    x: float,
    y: float,
    r: float,
    rng: np.random.Generator,
) -> None:
    """A cup of overlapping petals seen from the side."""
    lw = max(2.0, brush.width * 0.8)
    for k in range(5):
        a = math.pi + math.pi * k / 4
        canvas.circle(
            x + r * 0.55 * math.cos(a),
            y + r * 0.35 * math.sin(a) - r * 0.1,
            r * 0.42,
            fill=brush.petal,
        )
    canvas.ellipse(x, y + r * 0.2, r * 0.8, r * 0.45, 0, brush.petal)
    canvas.line(
        [(x - r * 0.4, y + r * 0.05), (x, y + r * 0.3), (x + r * 0.4, y + r * 0.05)],
        style.background,
        lw * 0.7,
    )


_BLOSSOMS: dict[
    str, Callable[[Canvas, Style, Brush, float, float, float, np.random.Generator], None]
] = {
    "rose": _rose,
    "five": _five_petals,
    "chrys": _rays,
    "peony": _peony,
}


def leaves_along(
    canvas: Canvas,
    brush: Brush,
    pts: list[Point],
    size: float,
    rng: np.random.Generator,
    count: int,
) -> None:
    """`count` leaves hung at random points of a stroke, pointing away from it."""
    for _ in range(count):
        k = int(rng.integers(2, len(pts) - 2))
        (x0, y0), (x1, y1) = pts[k], pts[k + 1]
        along = math.degrees(math.atan2(y1 - y0, x1 - x0))
        side = 1 if rng.random() < 0.5 else -1
        angle = along + side * float(rng.uniform(35, 75))
        length = size * float(rng.uniform(0.7, 1.3))
        canvas.leaf(
            x0,
            y0,
            length,
            length * float(rng.uniform(0.22, 0.35)),
            angle,
            brush.leaf,
            outline_only=not brush.filled_leaves,
            line_width=brush.width * 0.6,
        )


def roots_or_ground(
    canvas: Canvas, brush: Brush, x: float, y: float, w: float, rng: np.random.Generator
) -> None:
    """What a plant stands in: a fan of roots (blue on many Hong Kong sets), grass, or nothing."""
    kind = str(rng.choice(["roots", "grass", "none"], p=[0.4, 0.35, 0.25]))
    if kind == "roots":
        for k in range(5):
            a = math.pi / 2 + (k - 2) * 0.4
            canvas.line(
                [(x, y - w * 0.04), (x + math.cos(a) * w * 0.14, y + math.sin(a) * w * 0.06)],
                brush.roots,
                brush.width * 0.8,
            )
    elif kind == "grass":
        for _ in range(int(rng.integers(3, 7))):
            gx = x + w * float(rng.uniform(-0.3, 0.3))
            canvas.curve(
                (gx, y),
                (gx, y - w * 0.1),
                (gx + w * float(rng.uniform(-0.15, 0.15)), y - w * 0.15),
                (gx + w * float(rng.uniform(-0.2, 0.2)), y - w * float(rng.uniform(0.12, 0.25))),
                brush.leaf,
                brush.width * 0.7,
                taper=0.3,
            )
