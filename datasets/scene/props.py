"""Everyday things on a mahjong table, seen from above and drawn into the table texture:
phones, coins, cups, dice, counting sticks, score sheets, cables. Sizes are in millimetres
(the texture's scale is passed in), colours as such things have them.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from datasets.scene.lookalikes import LOOKALIKES

PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
Draw = Callable[[np.ndarray, np.ndarray], None]  # (image, shadow mask) -> None, in place


def _pts(poly: np.ndarray) -> np.ndarray:
    return np.round(poly * 16).astype(np.int32)


def _rect(centre: np.ndarray, w: float, h: float, angle: float) -> np.ndarray:
    return cv2.boxPoints(((float(centre[0]), float(centre[1])), (float(w), float(h)), float(angle)))


def _phone(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    w, h, a = 72 * mm, 150 * mm, rng.uniform(0, 180)
    body = tuple(float(v) for v in np.full(3, rng.uniform(15, 60)) + rng.normal(0, 5, 3))
    screen = tuple(float(v) for v in np.array(body) * 0.5 + rng.uniform(0, 40))

    def draw(img: np.ndarray, shadow: np.ndarray) -> None:
        cv2.fillConvexPoly(shadow, _pts(_rect(c, w, h, a)), 255, cv2.LINE_AA, 4)
        cv2.fillConvexPoly(img, _pts(_rect(c, w, h, a)), body, cv2.LINE_AA, 4)
        cv2.fillConvexPoly(img, _pts(_rect(c, w * 0.9, h * 0.92, a)), screen, cv2.LINE_AA, 4)

    return draw


def _coin(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    r = rng.uniform(9, 14) * mm
    metal = np.array([40, 150, 200] if rng.random() < 0.5 else [175, 175, 170], float)

    def draw(img: np.ndarray, shadow: np.ndarray) -> None:
        centre = (round(c[0] * 16), round(c[1] * 16))
        cv2.circle(shadow, centre, round(r * 16), 255, -1, cv2.LINE_AA, 4)
        cv2.circle(img, centre, round(r * 16), tuple(metal * 0.7), -1, cv2.LINE_AA, 4)
        cv2.circle(
            img, centre, round(r * 13), tuple(np.minimum(metal * 1.1, 255)), -1, cv2.LINE_AA, 4
        )

    return draw


def _cup(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    r = rng.uniform(35, 50) * mm
    china = np.array([rng.uniform(200, 250)] * 3) - rng.uniform(0, 40, 3)
    drink = np.array([20, 50, 90]) * rng.uniform(0.6, 1.6)  # tea or coffee

    def draw(img: np.ndarray, shadow: np.ndarray) -> None:
        centre = (round(c[0] * 16), round(c[1] * 16))
        cv2.circle(shadow, centre, round(r * 16), 255, -1, cv2.LINE_AA, 4)
        cv2.circle(img, centre, round(r * 16), tuple(china), -1, cv2.LINE_AA, 4)
        cv2.circle(img, centre, round(r * 0.85 * 16), tuple(drink), -1, cv2.LINE_AA, 4)

    return draw


def _sticks(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    """Scoring sticks (筹码): ivory rods with coloured dots, a few side by side."""
    n, a = int(rng.integers(1, 6)), rng.uniform(0, 180)
    dot = [(30, 30, 200), (40, 40, 40), (40, 140, 40), (160, 60, 20)][int(rng.integers(4))]
    step = np.array([np.cos(np.radians(a + 90)), np.sin(np.radians(a + 90))]) * 6 * mm

    def draw(img: np.ndarray, shadow: np.ndarray) -> None:
        for i in range(n):
            p = c + step * (i - n / 2)
            rod = _rect(p, 105 * mm, 4 * mm, a)
            cv2.fillConvexPoly(shadow, _pts(rod), 255, cv2.LINE_AA, 4)
            cv2.fillConvexPoly(img, _pts(rod), (215, 230, 240), cv2.LINE_AA, 4)
            cv2.circle(
                img,
                (round(p[0] * 16), round(p[1] * 16)),
                round(1.5 * mm * 16),
                dot,
                -1,
                cv2.LINE_AA,
                4,
            )

    return draw


def _sheet(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    w, h, a = rng.uniform(70, 150) * mm, rng.uniform(90, 210) * mm, rng.uniform(0, 180)
    paper = tuple(float(v) for v in rng.uniform(215, 250, 3))

    def draw(img: np.ndarray, shadow: np.ndarray) -> None:
        box = _rect(c, w, h, a)
        cv2.fillConvexPoly(shadow, _pts(box), 128, cv2.LINE_AA, 4)
        cv2.fillConvexPoly(img, _pts(box), paper, cv2.LINE_AA, 4)
        ink = (120, 60, 30)
        for t in np.linspace(0.15, 0.85, int(rng.integers(3, 9))):  # ruled lines, scribbles
            p0, p1 = box[0] + (box[1] - box[0]) * t, box[3] + (box[2] - box[3]) * t
            a0, a1 = _pts(p0), _pts(p1)
            cv2.line(
                img, (int(a0[0]), int(a0[1])), (int(a1[0]), int(a1[1])), ink, 1, cv2.LINE_AA, 4
            )

    return draw


def _dice(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    s, a = rng.uniform(12, 18) * mm, rng.uniform(0, 90)

    def draw(img: np.ndarray, shadow: np.ndarray) -> None:
        box = _rect(c, s, s, a)
        cv2.fillConvexPoly(shadow, _pts(box), 255, cv2.LINE_AA, 4)
        cv2.fillConvexPoly(img, _pts(box), (235, 240, 245), cv2.LINE_AA, 4)
        pips = int(rng.integers(1, 7))
        colour = (30, 30, 200) if pips in (1, 4) else (30, 30, 30)  # Chinese dice: red 1 and 4
        turn = np.array(
            [
                [np.cos(np.radians(a)), -np.sin(np.radians(a))],
                [np.sin(np.radians(a)), np.cos(np.radians(a))],
            ]
        )
        for p in np.array(PIPS[pips]) @ turn.T * s * 0.28 + c:
            cv2.circle(
                img,
                (round(p[0] * 16), round(p[1] * 16)),
                round(s * 0.1 * 16),
                colour,
                -1,
                cv2.LINE_AA,
                4,
            )

    return draw


def _cable(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    # A random walk with inertia: headings drift slowly, so the cable bends, never kinks.
    heading = np.cumsum(rng.normal(0, 0.25, 60)) + rng.uniform(0, 2 * np.pi)
    steps = np.column_stack([np.cos(heading), np.sin(heading)]).cumsum(axis=0) * 8 * mm
    line = (c + steps - steps.mean(axis=0)).astype(np.float32)
    colour = (30, 30, 30) if rng.random() < 0.6 else (225, 225, 225)
    width = max(1, round(rng.uniform(2.5, 5) * mm))

    def draw(img: np.ndarray, shadow: np.ndarray) -> None:
        cv2.polylines(shadow, [_pts(line)], False, 255, width, cv2.LINE_AA, 4)
        cv2.polylines(img, [_pts(line)], False, colour, width, cv2.LINE_AA, 4)

    return draw


PROPS = (_phone, _coin, _coin, _cup, _sticks, _sticks, _sheet, _dice, _cable)


def scatter_props(
    rng: np.random.Generator,
    img: np.ndarray,
    px_per_mm: float,
    count: int,
    lookalike_share: float = 0.5,
) -> None:
    """Lay `count` random props on a square texture in place, each with a soft drop shadow;
    about `lookalike_share` of them things that look like tiles (`scene.lookalikes`)."""
    size = img.shape[0]
    draws = []
    for _ in range(count):
        kinds = LOOKALIKES if rng.random() < lookalike_share else PROPS
        draws.append(kinds[int(rng.integers(len(kinds)))](rng, rng.uniform(0, size, 2), px_per_mm))
    shadow = np.zeros(img.shape[:2], np.uint8)  # every prop marks its outline here too
    props = img.copy()
    for draw in draws:
        draw(props, shadow)
    # The shadow falls a little beside each prop, soft-edged (blurred at a quarter size, it is
    # smooth anyway); then the props go over it.
    q = 4
    small = cv2.resize(shadow, (size // q, size // q), interpolation=cv2.INTER_AREA)
    offset = np.float32([[1, 0, 4 * px_per_mm / q], [0, 1, 4 * px_per_mm / q]])
    small = cv2.warpAffine(small, offset, (size // q, size // q))
    small = cv2.GaussianBlur(small, (0, 0), max(3 * px_per_mm / q, 0.5))
    light = 255 - cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR) // 9 * 4  # ~45 %
    cv2.multiply(img, cv2.merge([light, light, light]), dst=img, scale=1 / 255)
    cv2.copyTo(props, shadow, img)
