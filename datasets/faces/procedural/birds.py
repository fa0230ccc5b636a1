"""The 1-bamboo: every set draws its own bird (peacock, sparrow, crane...) or a single cane.

Birds are built from parametric parts (body, head, beak, tail, wing, legs, perch) with
random proportions, pose and colours, so the classifier never sees the same bird twice.
"""

from __future__ import annotations

import math

import numpy as np

from datasets.faces.procedural.canvas import RGB, Canvas
from datasets.faces.procedural.layout import Box
from datasets.faces.procedural.style import Style


def _colours(style: Style, rng: np.random.Generator) -> list[RGB]:
    roles = ["g", "r", "b", "k", "g", "r"]
    rng.shuffle(roles)
    return [style.colour(r) for r in roles]


def draw_bird(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    kind = int(rng.choice(4, p=[0.35, 0.35, 0.15, 0.15]))
    if kind == 3:
        _big_cane(canvas, style, box, rng)
        return
    cols = _colours(style, rng)
    facing = 1.0 if rng.random() < 0.5 else -1.0  # +1 looks right
    cx = x0 + w * float(rng.uniform(0.42, 0.58))
    cy = y0 + h * float(rng.uniform(0.5, 0.62))
    body_rx = w * float(rng.uniform(0.2, 0.3))
    body_ry = body_rx * float(rng.uniform(0.55, 0.8))
    body_angle = -facing * float(rng.uniform(10, 40))
    lw = max(2.0, w * 0.02 * style.stroke)

    if kind == 0:  # peacock: a big fan of eyed feathers behind
        n = int(rng.integers(5, 10))
        spread = float(rng.uniform(60, 140))
        for k in range(n):
            ang = math.radians(-90 - facing * 30 + spread * (k / max(1, n - 1) - 0.5))
            length = h * float(rng.uniform(0.32, 0.45))
            ex, ey = cx + math.cos(ang) * length, cy + math.sin(ang) * length
            canvas.line([(cx, cy), (ex, ey)], cols[1], lw)
            canvas.ellipse(ex, ey, w * 0.07, w * 0.045, math.degrees(ang), cols[2])
            canvas.circle(ex, ey, w * 0.025, fill=cols[3])
    else:  # sparrow / long-tailed bird: a few tail feathers trailing down and back
        for k in range(int(rng.integers(2, 5))):
            ang = math.radians(90 + facing * float(rng.uniform(30, 70)) + k * 8 * facing)
            length = h * float(rng.uniform(0.2, 0.42))
            canvas.line(
                [(cx, cy), (cx + math.cos(ang) * length, cy + math.sin(ang) * length)],
                cols[1],
                lw * float(rng.uniform(1.0, 2.5)),
            )

    canvas.ellipse(cx, cy, body_rx, body_ry, body_angle, cols[0])
    # wing: a darker ellipse on the body
    canvas.ellipse(
        cx - facing * body_rx * 0.15,
        cy - body_ry * 0.1,
        body_rx * 0.7,
        body_ry * 0.5,
        body_angle + facing * 15,
        cols[2],
    )
    head_r = body_ry * float(rng.uniform(0.5, 0.75))
    neck = float(rng.uniform(0.8, 1.4))
    hx = cx + facing * body_rx * 0.85
    hy = cy - body_ry * neck
    canvas.line(
        [(cx + facing * body_rx * 0.5, cy - body_ry * 0.3), (hx, hy)], cols[0], head_r * 1.1
    )
    canvas.circle(hx, hy, head_r, fill=cols[0])
    beak = head_r * float(rng.uniform(0.8, 1.6))
    canvas.draw.polygon(
        [
            (hx + facing * head_r * 0.8, hy - head_r * 0.25),
            (hx + facing * (head_r + beak), hy + head_r * 0.1),
            (hx + facing * head_r * 0.8, hy + head_r * 0.35),
        ],
        fill=cols[4] if cols[4] != cols[0] else cols[3],
    )
    canvas.circle(
        hx + facing * head_r * 0.3,
        hy - head_r * 0.2,
        max(1.5, head_r * 0.22),
        fill=style.background,
    )
    canvas.circle(
        hx + facing * head_r * 0.3, hy - head_r * 0.2, max(1.0, head_r * 0.11), fill=style.black
    )
    if rng.random() < 0.5:  # crest
        for k in range(3):
            a = math.radians(-90 - facing * (10 + 15 * k))
            canvas.line(
                [
                    (hx, hy - head_r * 0.5),
                    (hx + math.cos(a) * head_r * 1.3, hy + math.sin(a) * head_r * 1.3),
                ],
                cols[1],
                lw * 0.8,
            )
    # legs standing on a perch (branch or ground line)
    foot_y = min(y1, cy + body_ry + h * float(rng.uniform(0.08, 0.18)))
    for dx in (-0.25, 0.2):
        lx = cx + dx * body_rx
        canvas.line(
            [(lx, cy + body_ry * 0.7), (lx + facing * 2, foot_y)], style.colour("k"), lw * 0.7
        )
    if rng.random() < 0.7:
        canvas.line(
            [(x0 + w * 0.05, foot_y + lw), (x1 - w * 0.05, foot_y - facing * h * 0.04)],
            style.colour("g" if rng.random() < 0.5 else "k"),
            lw * 1.8,
        )


def _big_cane(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    """Some sets print the 1-bamboo as one large cane with leaves instead of a bird."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = x0 + w * 0.5
    thick = w * float(rng.uniform(0.14, 0.22))
    colour = style.colour("g" if rng.random() < 0.7 else "b")
    canvas.line([(cx, y0 + h * 0.08), (cx, y1 - h * 0.05)], colour, thick)
    for t in np.linspace(0.2, 0.85, int(rng.integers(3, 5))):
        y = y0 + h * t
        canvas.line([(cx - thick * 0.8, y), (cx + thick * 0.8, y)], style.colour("r"), thick * 0.25)
    for _ in range(int(rng.integers(2, 5))):
        side = 1 if rng.random() < 0.5 else -1
        y = y0 + h * float(rng.uniform(0.15, 0.7))
        canvas.ellipse(
            cx + side * w * 0.22,
            y,
            w * 0.2,
            w * 0.06,
            side * float(rng.uniform(-35, 5)),
            style.colour("g"),
        )
