"""Dots (筒, circles): rank N shows N coins in the usual arrangement, spaced per set."""

from __future__ import annotations

import math

import numpy as np

from datasets.faces.procedural.arrangements import other_arrangement
from datasets.faces.procedural.canvas import RGB, Canvas
from datasets.faces.procedural.layout import Box
from datasets.faces.procedural.style import Style

# (u, v) centres in the content box and the colour role of each coin, rank by rank.
# Colours follow the common scheme (e.g. 5: red centre; 6: two green over four red).
LAYOUTS: dict[int, tuple[list[tuple[float, float]], str]] = {
    1: ([(0.5, 0.5)], "g"),
    2: ([(0.5, 0.25), (0.5, 0.75)], "gb"),
    3: ([(0.2, 0.17), (0.5, 0.5), (0.8, 0.83)], "brg"),
    4: ([(0.27, 0.25), (0.73, 0.25), (0.27, 0.75), (0.73, 0.75)], "bggb"),
    5: ([(0.25, 0.2), (0.75, 0.2), (0.5, 0.5), (0.25, 0.8), (0.75, 0.8)], "bgrgb"),
    6: (
        [(0.27, 0.15), (0.73, 0.15), (0.27, 0.55), (0.73, 0.55), (0.27, 0.85), (0.73, 0.85)],
        "ggrrrr",
    ),
    7: (
        [
            (0.18, 0.1),
            (0.5, 0.22),
            (0.82, 0.34),
            (0.28, 0.62),
            (0.72, 0.62),
            (0.28, 0.88),
            (0.72, 0.88),
        ],
        "gggrrrr",
    ),
    8: ([(u, v) for v in (0.12, 0.37, 0.63, 0.88) for u in (0.27, 0.73)], "bbbbbbbb"),
    9: ([(u, v) for v in (0.15, 0.5, 0.85) for u in (0.18, 0.5, 0.82)], "bbbrrrggg"),
}
# Share of faces whose coins lie in another arrangement than the rank's usual one
# (arrangements.py: rows of other widths, a ring).
OTHER_SHARE = 0.25
# Coin radius as a fraction of the content width.
RADIUS = {1: 0.5, 2: 0.28, 3: 0.2, 4: 0.22, 5: 0.2, 6: 0.19, 7: 0.15, 8: 0.16, 9: 0.15}


def draw_dots(canvas: Canvas, style: Style, box: Box, rank: int, rng: np.random.Generator) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    centres, roles = LAYOUTS[rank]
    r = RADIUS[rank] * w * float(rng.uniform(0.75, 1.05))
    if rng.random() < 0.35:  # the 3's and 7's diagonals run either way (KDE's default set)
        centres = [(1 - u, v) for u, v in centres]
    other = other_arrangement(rank, rng, sticks=False) if rng.random() < OTHER_SHARE else None
    if other is not None:  # the usual colours, top to bottom, on the other arrangement
        centres = other
        r = max(r, RADIUS[rank] * w * 0.9)  # the coins' gaps shrink them where they must
    # Sets space and place their coins a little differently: a per-set squeeze towards the
    # centre and a small per-coin offset, so the count is what stays the same.
    squeeze = float(rng.uniform(0.85, 1.0))
    wobble = float(rng.uniform(0.0, 0.035))
    centres = [
        (
            0.5 + (u - 0.5) * squeeze + float(rng.normal(0, wobble)),
            0.5 + (v - 0.5) * squeeze + float(rng.normal(0, wobble)),
        )
        for u, v in centres
    ]
    pts = [(x0 + u * w, y0 + v * h) for u, v in centres]
    gaps = [
        ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5
        for i, (ax, ay) in enumerate(pts)
        for bx, by in pts[i + 1 :]
    ]
    r = min(r, 0.42 * min(gaps, default=2 * r), 0.5 * h)  # coins never touch: each stays a blob
    coin = int(rng.integers(COIN_DESIGNS))  # one coin design per set
    centre_role = str(rng.choice(list("rgbk")))  # the centre colour of two-colour coins
    swap = rng.random() < 0.3  # some sets swap the blue and green roles
    for (u, v), role in zip(centres, roles, strict=True):
        if swap and role in "bg":
            role = "g" if role == "b" else "b"
        if style.japanese and rank == 5 and role != "r" and rng.random() < 0.5:
            role = "r"  # red five (aka-dora)
        colour = style.colour(role)
        cx, cy = x0 + u * w, y0 + v * h
        if rank == 1:
            _big_coin(canvas, style, cx, cy, r, rng)
        else:
            _coin(canvas, style, cx, cy, r, colour, coin, style.colour(centre_role))


COIN_DESIGNS = 7


def _coin(
    canvas: Canvas,
    style: Style,
    cx: float,
    cy: float,
    r: float,
    colour: RGB,
    design: int,
    centre: RGB,
) -> None:
    lw = max(2.0, r * 0.16 * style.stroke)
    bg = style.background
    if design == 0:  # concentric rings
        canvas.circle(cx, cy, r, fill=colour)
        canvas.circle(cx, cy, r - lw, fill=bg)
        canvas.circle(cx, cy, r * 0.55, fill=colour)
        canvas.circle(cx, cy, r * 0.55 - lw * 0.8, fill=bg)
        canvas.circle(cx, cy, r * 0.18, fill=colour)
    elif design == 1:  # solid coin with a light ring
        canvas.circle(cx, cy, r, fill=colour)
        canvas.circle(cx, cy, r * 0.62, outline=bg, width=lw * 0.7)
        canvas.circle(cx, cy, r * 0.2, fill=bg)
    elif design == 2:  # ring with spokes, like a cash coin rim
        canvas.circle(cx, cy, r, outline=colour, width=lw)
        for k in range(8):
            a = k * math.pi / 4
            canvas.line(
                [
                    (cx + r * 0.35 * math.cos(a), cy + r * 0.35 * math.sin(a)),
                    (cx + r * 0.8 * math.cos(a), cy + r * 0.8 * math.sin(a)),
                ],
                colour,
                lw * 0.6,
            )
        canvas.circle(cx, cy, r * 0.25, fill=colour)
    elif design == 4:  # a broad coloured ring round a centre of another colour
        canvas.circle(cx, cy, r, fill=colour)
        canvas.circle(cx, cy, r * 0.62, fill=bg)
        canvas.circle(cx, cy, r * 0.42, fill=centre)
    elif design == 5:  # a filled coin outlined in a dark rim, a light square hole
        canvas.circle(cx, cy, r, fill=style.black)
        canvas.circle(cx, cy, r - lw * 0.8, fill=colour)
        hole = r * 0.22
        canvas.rounded_rect((cx - hole, cy - hole, cx + hole, cy + hole), hole * 0.2, fill=bg)
    elif design == 6:  # thin outline rings only
        for rr in (1.0, 0.7, 0.4):
            canvas.circle(cx, cy, r * rr, outline=colour, width=lw * 0.6)
    else:  # flower rim: petals round a centre
        for k in range(8):
            a = k * math.pi / 4
            canvas.circle(
                cx + r * 0.72 * math.cos(a), cy + r * 0.72 * math.sin(a), r * 0.3, fill=colour
            )
        canvas.circle(cx, cy, r * 0.5, fill=bg)
        canvas.circle(cx, cy, r * 0.32, fill=colour)


def _big_coin(
    canvas: Canvas, style: Style, cx: float, cy: float, r: float, rng: np.random.Generator
) -> None:
    """The 1-dot: one large ornate coin, every set decorating it its own way."""
    roles = list("gbrk")
    rng.shuffle(roles)
    c_out, c_mid, c_in = (style.colour(x) for x in roles[:3])
    bg = style.background
    lw = max(2.0, r * 0.07 * style.stroke)
    # 0-2 a ringed coin, 3 a rosette of petals, 4 a cross of four lobed arms: no outer ring
    design = int(rng.choice(5, p=[0.24, 0.2, 0.16, 0.2, 0.2]))
    if design >= 3:
        _medallion(canvas, style, cx, cy, r, design == 4, (c_out, c_mid, c_in), lw, rng)
        return
    canvas.circle(cx, cy, r, fill=c_out)
    canvas.circle(cx, cy, r - lw * 1.5, fill=bg)
    if design == 0:  # a ring of petals round a ringed centre
        petals = int(rng.choice([8, 12, 16]))
        for k in range(petals):
            a = 2 * math.pi * k / petals
            canvas.circle(
                cx + r * 0.76 * math.cos(a), cy + r * 0.76 * math.sin(a), r * 0.13, fill=c_mid
            )
    else:  # a wavy (Hong Kong) or zigzag band between the rims
        n = int(rng.integers(14, 26))
        pts = []
        for k in range(4 * n + 1):
            a = 2 * math.pi * k / (4 * n)
            wave = math.sin(a * n) if design == 1 else (1 if (k // 2) % 2 else -1)
            rr = r * (0.75 + 0.08 * wave)
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        canvas.line(pts, c_mid, lw * 1.4)
    canvas.circle(cx, cy, r * 0.58, fill=c_in)
    canvas.circle(cx, cy, r * 0.58 - lw * 1.2, fill=bg)
    centre = int(rng.integers(3))
    if centre == 0:
        canvas.circle(cx, cy, r * 0.36, fill=c_mid if rng.random() < 0.5 else c_out)
        canvas.circle(cx, cy, r * 0.14, fill=bg)
    elif centre == 1:  # concentric thin rings
        for k, rr in enumerate((0.44, 0.3, 0.16)):
            canvas.circle(cx, cy, r * rr, outline=(c_out, c_mid, c_in)[k], width=lw)
    else:  # a four-petal knot
        for k in range(4):
            a = math.pi / 2 * k + math.pi / 4
            canvas.circle(
                cx + r * 0.2 * math.cos(a),
                cy + r * 0.2 * math.sin(a),
                r * 0.2,
                outline=c_out,
                width=lw,
            )


def _medallion(
    canvas: Canvas,
    style: Style,
    cx: float,
    cy: float,
    r: float,
    cross: bool,
    inks: tuple[RGB, RGB, RGB],
    lw: float,
    rng: np.random.Generator,
) -> None:
    """A 1-dot without a rim: a rosette of petals, or a cross of four arms ending in lobes
    (some sets draw the one coin as a flower or an ornament), round a small ringed coin."""
    c_out, c_mid, c_in = inks
    bg = style.background
    turn = math.pi / 4 if rng.random() < 0.3 else 0.0
    if cross:
        for k in range(4):
            a = turn + math.pi / 2 * k
            ux, uy = math.cos(a), math.sin(a)
            canvas.line([(cx, cy), (cx + ux * r * 0.7, cy + uy * r * 0.7)], c_mid, r * 0.3)
            for side in (-1.0, 1.0):  # a trefoil end: two side lobes and one ahead
                lx = cx + ux * r * 0.72 - uy * side * r * 0.2
                ly = cy + uy * r * 0.72 + ux * side * r * 0.2
                canvas.circle(lx, ly, r * 0.16, fill=c_out)
            canvas.circle(cx + ux * r * 0.86, cy + uy * r * 0.86, r * 0.16, fill=c_out)
    else:
        petals = int(rng.choice([5, 6, 8, 10]))
        for k in range(petals):
            a = math.degrees(turn + 2 * math.pi * k / petals)
            canvas.leaf(cx, cy, r, r * 0.32, a, c_mid)
        if rng.random() < 0.5:  # small dots between the petals
            for k in range(petals):
                a = turn + 2 * math.pi * (k + 0.5) / petals
                canvas.circle(
                    cx + r * 0.7 * math.cos(a), cy + r * 0.7 * math.sin(a), r * 0.07, fill=c_out
                )
    canvas.circle(cx, cy, r * 0.36, fill=c_in)
    canvas.circle(cx, cy, r * 0.36 - lw, fill=bg)
    canvas.circle(cx, cy, r * 0.2, fill=c_out)
