"""Bamboo (條, sticks): rank N shows N sticks in the usual arrangement; rank 1 is a bird."""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np

from datasets.faces.procedural.arrangements import Placement, other_arrangement
from datasets.faces.procedural.birds import draw_bird
from datasets.faces.procedural.canvas import RGB, Canvas
from datasets.faces.procedural.layout import Box
from datasets.faces.procedural.style import Style

# (u, v, length as a fraction of the content height, tilt in degrees, colour role)
Stick = tuple[float, float, float, float, str]
_COL3 = (0.18, 0.5, 0.82)
LAYOUTS: dict[int, list[Stick]] = {
    2: [(0.5, 0.26, 0.44, 0.0, "g"), (0.5, 0.74, 0.44, 0.0, "b")],
    3: [(0.5, 0.26, 0.44, 0.0, "b"), (0.28, 0.74, 0.44, 0.0, "g"), (0.72, 0.74, 0.44, 0.0, "g")],
    4: [
        (u, v, 0.44, 0, c)
        for (u, v), c in zip(
            [(0.28, 0.26), (0.72, 0.26), (0.28, 0.74), (0.72, 0.74)], "bggb", strict=True
        )
    ],
    5: [
        (0.2, 0.26, 0.44, 0.0, "g"),
        (0.8, 0.26, 0.44, 0.0, "b"),
        (0.5, 0.5, 0.44, 0.0, "r"),
        (0.2, 0.74, 0.44, 0.0, "b"),
        (0.8, 0.74, 0.44, 0.0, "g"),
    ],
    6: [(u, v, 0.44, 0.0, "g" if v < 0.5 else "b") for v in (0.26, 0.74) for u in _COL3],
    # "a" is the set's accent: the 7's lower middle column and the 9's middle column
    7: [(0.5, 0.15, 0.28, 0.0, "r")]
    + [(u, v, 0.28, 0.0, "a" if u == 0.5 else "g") for v in (0.5, 0.85) for u in _COL3],
    8: [
        (0.13, 0.25, 0.42, 0.0, "g"),
        (0.37, 0.25, 0.44, 24, "g"),
        (0.63, 0.25, 0.44, -24, "g"),
        (0.87, 0.25, 0.42, 0.0, "g"),
        (0.13, 0.75, 0.42, 0.0, "b"),
        (0.37, 0.75, 0.44, -24, "b"),
        (0.63, 0.75, 0.44, 24, "b"),
        (0.87, 0.75, 0.42, 0.0, "b"),
    ],
    9: [(u, v, 0.28, 0.0, "a" if u == 0.5 else "g") for v in (0.16, 0.5, 0.84) for u in _COL3],
}
# Share of faces whose sticks lie in another arrangement than the rank's usual one
# (arrangements.py: short canes in rows of other widths).
OTHER_SHARE = 0.25


def _sticks_of(placement: Placement, roles: list[str]) -> list[Stick]:
    """Sticks on another arrangement of rows, upright, each seven tenths of its row's pitch
    long so that a column's sticks never touch (two touching read as one long cane)."""
    levels = sorted({round(v, 3) for _, v in placement})
    pitch = min((b - a for a, b in pairwise(levels)), default=1.0)
    length = min(0.44, 0.7 * pitch)  # room for the per-stick wobble too
    return [(u, v, length, 0.0, role) for (u, v), role in zip(placement, roles, strict=True)]


def draw_bamboo(
    canvas: Canvas, style: Style, box: Box, rank: int, rng: np.random.Generator
) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if rank == 1:
        if rng.random() < 0.15:  # some sets (modern, computer) print one tall cane, no bird
            _stick(
                canvas,
                style,
                (x0 + x1) / 2,
                (y0 + y1) / 2,
                h * float(rng.uniform(0.5, 0.9)),
                w * float(rng.uniform(0.14, 0.26)),
                0.0,
                style.colour(str(rng.choice(["g", "b", "r"], p=[0.6, 0.2, 0.2]))),
                int(rng.integers(4)),
            )
        else:
            draw_bird(canvas, style, box, rng)
        return
    thick = w * float(rng.uniform(0.08, 0.14)) * (0.85 if rank in (6, 7, 8, 9) else 1.0)
    design = int(rng.integers(4))
    mono = rng.random() < 0.3  # some sets print every stick green
    flip_eight = rank == 8 and rng.random() < 0.5  # W over M as often as M over W
    accent = str(
        rng.choice(["g", "b", "r"], p=[0.45, 0.35, 0.2])
        if rank == 7
        else rng.choice(["r", "b"], p=[0.75, 0.25])
    )
    # Sets space their sticks differently: a per-set squeeze towards the centre (apart in
    # columns and rows separately, so the same count reads as tall or squat clusters), a
    # per-set stick length and a small per-stick offset; the count is what stays the same.
    squeeze_u = float(rng.uniform(0.88 if rank == 8 else 0.75, 1.05))  # the 8's sticks lean
    squeeze_v = float(rng.uniform(0.8, 1.02))
    length_scale = float(rng.uniform(0.72, 1.08))
    wobble = float(rng.uniform(0.0, 0.025))
    three_upside_down = rank == 3 and rng.random() < 0.15  # two over one on some sets
    sticks = LAYOUTS[rank]
    other = other_arrangement(rank, rng, sticks=True) if rng.random() < OTHER_SHARE else None
    if other is not None:  # the usual colours, top to bottom, on the other arrangement
        sticks = _sticks_of(other, [role for *_, role in sticks])
        flip_eight = three_upside_down = False
    for u, v, length, tilt, role in sticks:
        if flip_eight or three_upside_down:
            v, tilt = 1 - v, -tilt
        u = 0.5 + (u - 0.5) * squeeze_u + float(rng.normal(0, wobble))
        v = 0.5 + (v - 0.5) * squeeze_v + float(rng.normal(0, wobble))
        length *= min(length_scale, squeeze_v)  # closer rows take shorter sticks
        if role == "a":
            role = accent
        if mono and role == "b":
            role = "g"
        if style.japanese and rank == 5 and rng.random() < 0.5:
            role = "r"
        _stick(
            canvas,
            style,
            x0 + u * w,
            y0 + v * h,
            length * h * 0.95,
            thick,
            tilt,
            style.colour(role),
            design,
        )


def _stick(
    canvas: Canvas,
    style: Style,
    cx: float,
    cy: float,
    length: float,
    thick: float,
    tilt: float,
    colour: RGB,
    design: int,
) -> None:
    a = math.radians(tilt)
    ux, uy = math.sin(a), math.cos(a)  # unit vector along the stick, top to bottom

    def at(t: float) -> tuple[float, float]:  # t in [-1, 1] from top to bottom end
        return cx + ux * t * length / 2, cy + uy * t * length / 2

    bg = style.background
    if design >= 2:  # beaded canes: bulging segments pinched at the nodes, as most sets print
        segments = 3 if length > thick * 4.5 else 2
        seg = 2.0 / segments
        for k in range(segments):
            mid = -1 + seg * (k + 0.5)
            mx, my = at(mid)
            canvas.ellipse(mx, my, thick * 0.55, length / segments * 0.5, -tilt, colour)
            if design == 3:  # outlined: a light core inside each bead
                canvas.ellipse(mx, my, thick * 0.25, length / segments * 0.36, -tilt, bg)
        for k in range(segments + 1):
            nx, ny = at(-1 + seg * k if 0 < k < segments else (-0.97 if k == 0 else 0.97))
            px, py = uy * thick * 0.45, -ux * thick * 0.45
            canvas.line([(nx - px, ny - py), (nx + px, ny + py)], colour, thick * 0.3)
        return
    canvas.line([at(-1), at(1)], colour, thick)
    if design == 0:  # hollow stick with a light core line
        canvas.line([at(-0.8), at(0.8)], bg, thick * 0.3)
    else:  # two segments
        canvas.line([at(-0.85), at(-0.1)], bg, thick * 0.35)
        canvas.line([at(0.1), at(0.85)], bg, thick * 0.35)
    # nodes: wider bands at the ends and the middle, as on a real bamboo cane
    for t in (-0.92, 0.0, 0.92):
        nx, ny = at(t)
        px, py = uy * thick * 0.7, -ux * thick * 0.7
        canvas.line([(nx - px, ny - py), (nx + px, ny + py)], colour, thick * 0.45)
