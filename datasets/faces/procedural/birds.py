"""The 1-bamboo: every set draws its own bird (peacock, sparrow, phoenix...) or a single cane.

Birds are built from parametric parts (body, head, beak, crest, wing, tail, legs, perch)
with random proportions, pose and inks, drawn either as filled shapes or, like most Hong
Kong sets, as bold multi-coloured line art filling the face.
"""

from __future__ import annotations

import math

import numpy as np

from datasets.faces.procedural.canvas import RGB, Canvas
from datasets.faces.procedural.layout import Box
from datasets.faces.procedural.style import Style


def _inks(style: Style, rng: np.random.Generator) -> list[RGB]:
    roles = ["g", "r", "b", "k", "g", "r"]
    rng.shuffle(roles)
    return [style.colour(r) for r in roles]


def draw_bird(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    kind = str(rng.choice(["line", "filled", "cane"], p=[0.5, 0.38, 0.12]))
    if kind == "cane":
        _big_cane(canvas, style, box, rng)
        return
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    inks = _inks(style, rng)
    facing = 1.0 if rng.random() < 0.5 else -1.0  # +1 looks right
    cx = x0 + w * float(rng.uniform(0.42, 0.58))
    cy = y0 + h * float(rng.uniform(0.4, 0.55))
    rx = w * float(rng.uniform(0.22, 0.32))
    ry = rx * float(rng.uniform(0.55, 0.85))
    tilt = -facing * float(rng.uniform(10, 50))  # head up
    lw = max(2.5, w * float(rng.uniform(0.022, 0.04)) * style.stroke)
    line_art = kind == "line"

    _tail(canvas, style, inks, cx, cy, rx, facing, w, h, lw, rng)
    # body: an egg shape (filled, or outlined with feather strokes inside)
    if line_art:
        _ellipse_outline(canvas, cx, cy, rx, ry, tilt, inks[0], lw)
    else:
        canvas.ellipse(cx, cy, rx, ry, tilt, inks[0])
    # wing: a leaf shape from the shoulder back towards the tail, with feather lines
    wing_len = rx * float(rng.uniform(1.1, 1.6))
    wing_angle = 180 + tilt if facing > 0 else -tilt
    wing_angle += float(rng.uniform(-25, 25))
    sx, sy = cx + facing * rx * 0.2, cy - ry * 0.3
    canvas.leaf(
        sx, sy, wing_len, ry * 0.55, wing_angle, inks[1], outline_only=line_art, line_width=lw
    )
    for k in range(int(rng.integers(2, 5))):
        a = math.radians(wing_angle + (k - 1.5) * 8)
        canvas.line(
            [(sx, sy), (sx + math.cos(a) * wing_len * 0.8, sy + math.sin(a) * wing_len * 0.8)],
            inks[2] if line_art else style.background,
            lw * 0.5,
        )
    # neck and head
    head_r = ry * float(rng.uniform(0.45, 0.7))
    hx = cx + facing * rx * float(rng.uniform(0.7, 1.0))
    hy = cy - ry * float(rng.uniform(0.9, 1.6))
    canvas.line(
        [(cx + facing * rx * 0.5, cy - ry * 0.4), (hx, hy)],
        inks[0],
        lw if line_art else head_r * 1.1,
    )
    if line_art:
        canvas.circle(hx, hy, head_r, outline=inks[0], width=lw)
    else:
        canvas.circle(hx, hy, head_r, fill=inks[0])
    beak = head_r * float(rng.uniform(0.7, 1.6))
    hooked = rng.random() < 0.3  # parrots and birds of prey
    tip = (hx + facing * (head_r + beak), hy + head_r * (0.5 if hooked else 0.1))
    canvas.draw.polygon(
        [
            (hx + facing * head_r * 0.8, hy - head_r * 0.3),
            tip,
            (hx + facing * head_r * 0.8, hy + head_r * 0.35),
        ],
        fill=inks[3],
    )
    eye = (hx + facing * head_r * 0.3, hy - head_r * 0.15)
    canvas.circle(
        *eye,
        max(2.0, head_r * 0.28),
        fill=style.background,
        outline=style.black,
        width=max(1.0, lw * 0.4),
    )
    canvas.circle(*eye, max(1.0, head_r * 0.12), fill=style.black)
    if rng.random() < 0.6:  # crest
        for k in range(int(rng.integers(2, 5))):
            a = math.radians(-90 - facing * (5 + 18 * k))
            end = (hx + math.cos(a) * head_r * 1.6, hy - head_r * 0.6 + math.sin(a) * head_r * 1.4)
            canvas.line([(hx, hy - head_r * 0.7), end], inks[1], lw * 0.7)
            if rng.random() < 0.5:
                canvas.circle(*end, lw * 0.8, fill=inks[1])
    _legs_and_perch(canvas, style, inks, cx, cy, rx, ry, facing, box, lw, rng)


def _ellipse_outline(
    canvas: Canvas,
    cx: float,
    cy: float,
    rx: float,
    ry: float,
    angle: float,
    colour: RGB,
    width: float,
) -> None:
    a = math.radians(angle)
    pts = []
    for k in range(25):
        t = 2 * math.pi * k / 24
        x, y = rx * math.cos(t), ry * math.sin(t)
        pts.append((cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)))
    canvas.line(pts, colour, width)


def _tail(
    canvas: Canvas,
    style: Style,
    inks: list[RGB],
    cx: float,
    cy: float,
    rx: float,
    facing: float,
    w: float,
    h: float,
    lw: float,
    rng: np.random.Generator,
) -> None:
    kind = str(rng.choice(["fan", "streamers", "short"], p=[0.3, 0.5, 0.2]))
    if kind == "fan":  # peacock: eyed feathers fanned up behind the body
        n = int(rng.integers(5, 10))
        spread = float(rng.uniform(70, 150))
        for k in range(n):
            ang = math.radians(-90 - facing * 35 + spread * (k / max(1, n - 1) - 0.5))
            length = h * float(rng.uniform(0.3, 0.45))
            ex, ey = cx + math.cos(ang) * length, cy + math.sin(ang) * length
            canvas.line([(cx, cy), (ex, ey)], inks[1], lw * 0.8)
            canvas.ellipse(ex, ey, w * 0.075, w * 0.05, math.degrees(ang), inks[2])
            canvas.circle(ex, ey, w * 0.025, fill=inks[3])
        return
    count = int(rng.integers(3, 7)) if kind == "streamers" else int(rng.integers(2, 4))
    reach = h * (
        float(rng.uniform(0.3, 0.5)) if kind == "streamers" else float(rng.uniform(0.15, 0.25))
    )
    for k in range(count):
        start = (cx - facing * rx * 0.7, cy + rx * 0.1)
        spread = (k - count / 2) * float(rng.uniform(0.04, 0.09))
        end = (start[0] - facing * w * float(rng.uniform(0.05, 0.3)) + spread * w, start[1] + reach)
        ctrl = (start[0] - facing * w * 0.25, start[1] + reach * 0.3)
        colour = inks[1 + k % 3]
        canvas.curve(
            start,
            ctrl,
            (end[0], end[1] - reach * 0.3),
            end,
            colour,
            lw * float(rng.uniform(0.8, 1.6)),
            taper=0.4,
        )


def _legs_and_perch(
    canvas: Canvas,
    style: Style,
    inks: list[RGB],
    cx: float,
    cy: float,
    rx: float,
    ry: float,
    facing: float,
    box: Box,
    lw: float,
    rng: np.random.Generator,
) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    foot_y = min(y1 - h * 0.02, cy + ry + h * float(rng.uniform(0.06, 0.14)))
    for dx in (-0.2, 0.2):
        lx = cx + dx * rx
        canvas.line([(lx, cy + ry * 0.7), (lx + facing * w * 0.02, foot_y)], inks[3], lw * 0.6)
        for toe in (-1, 0, 1):
            canvas.line(
                [
                    (lx + facing * w * 0.02, foot_y),
                    (lx + facing * w * 0.02 + toe * w * 0.04, foot_y + h * 0.015),
                ],
                inks[3],
                lw * 0.5,
            )
    perch = str(rng.choice(["branch", "ground", "cane", "none"], p=[0.4, 0.25, 0.2, 0.15]))
    if perch == "cane":  # a bird standing on a bamboo cane: the suit's emblem
        cane_x = cx + float(rng.uniform(-0.1, 0.1)) * w
        thick = w * float(rng.uniform(0.07, 0.11))
        colour = style.colour("g")
        canvas.line([(cane_x, foot_y), (cane_x, y1)], colour, thick)
        for t in (0.33, 0.66):
            y = foot_y + (y1 - foot_y) * t
            canvas.line([(cane_x - thick * 0.7, y), (cane_x + thick * 0.7, y)], colour, thick * 0.4)
        canvas.line(
            [(cane_x - thick * 0.8, foot_y), (cane_x + thick * 0.8, foot_y)], colour, thick * 0.5
        )
    elif perch == "branch":
        colour = style.colour("g" if rng.random() < 0.5 else "k")
        canvas.curve(
            (x0, foot_y + lw),
            (x0 + w * 0.3, foot_y - h * 0.03),
            (x1 - w * 0.3, foot_y + h * 0.03),
            (x1, foot_y - facing * h * 0.05),
            colour,
            lw * 1.5,
            taper=0.5,
        )
        for _ in range(int(rng.integers(1, 4))):
            lx = x0 + w * float(rng.uniform(0.1, 0.9))
            canvas.leaf(
                lx, foot_y, w * 0.16, w * 0.05, float(rng.uniform(20, 160)), style.colour("g")
            )
    elif perch == "ground":
        for _ in range(int(rng.integers(3, 6))):
            gx = x0 + w * float(rng.uniform(0.1, 0.9))
            canvas.line(
                [
                    (gx, foot_y + h * 0.02),
                    (gx + w * float(rng.uniform(-0.05, 0.05)), foot_y - h * 0.06),
                ],
                style.colour("g"),
                lw * 0.6,
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
        canvas.leaf(
            cx + side * thick * 0.4,
            y,
            w * 0.3,
            w * 0.07,
            -90 + side * float(rng.uniform(30, 80)),
            style.colour("g"),
        )
