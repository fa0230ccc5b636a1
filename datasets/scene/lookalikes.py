"""Things on real tables that look like tiles from above, drawn into the table texture:
computer keyboards, keypads and calculators, dominoes, playing cards, poker chips, remotes,
pens, tile racks, phones showing a grid of app icons.

A detector that never saw them reads keycaps as tiles and dominoes as face-down tiles; drawn
unlabelled, they teach "not a tile". Each maker draws its thing upright on a small patch at
the texture's scale (`mm` texels per millimetre) and stamps it turned into the texture, so
legends and pips turn with the thing. Sizes are in millimetres, as the things have them.
"""

from __future__ import annotations

import string
from collections.abc import Callable

import cv2
import numpy as np

Draw = Callable[[np.ndarray, np.ndarray], None]  # (image, shadow mask) -> None, in place
Colour = tuple[float, float, float]

LEGENDS = string.ascii_uppercase + string.digits + "!@#$%&*+-=/?<>[];:,."
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_PLAIN)
# A keyboard's rows in key units (1u = one key pitch, about 19 mm): number row to space bar.
KEY_ROWS = (
    (1,) * 13 + (2,),
    (1.5,) + (1,) * 12 + (1.5,),
    (1.75,) + (1,) * 11 + (2.25,),
    (2.25,) + (1,) * 10 + (2.75,),
    (1.25, 1.25, 1.25, 6.25, 1.25, 1.25, 1.25, 1.25),
)
PIP_GRID = {
    0: [],
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _grey(rng: np.random.Generator, low: float, high: float, tint: float = 6) -> Colour:
    v = rng.uniform(low, high) + rng.normal(0, tint, 3)
    return (float(v[0]), float(v[1]), float(v[2]))


def _vivid(rng: np.random.Generator) -> Colour:
    hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(120, 255), rng.uniform(120, 240)]]])
    b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
    return (float(b), float(g), float(r))


def _contrast(colour: Colour) -> Colour:
    return (20.0, 20.0, 20.0) if np.mean(colour) > 110 else (235.0, 235.0, 235.0)


def _rounded(
    patch: np.ndarray, x0: float, y0: float, x1: float, y1: float, r: float, colour: Colour | int
) -> None:
    """A filled rectangle with round corners, drawn with subpixel precision."""
    s = 16
    r = max(0.0, min(r, (x1 - x0) / 2, (y1 - y0) / 2))

    def p(x: float, y: float) -> tuple[int, int]:
        return round(x * s), round(y * s)

    cv2.rectangle(patch, p(x0 + r, y0), p(x1 - r, y1), colour, -1, cv2.LINE_AA, 4)
    cv2.rectangle(patch, p(x0, y0 + r), p(x1, y1 - r), colour, -1, cv2.LINE_AA, 4)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(patch, p(cx, cy), round(r * s), colour, -1, cv2.LINE_AA, 4)


def _text(
    patch: np.ndarray,
    text: str,
    centre: tuple[float, float],
    height: float,
    colour: Colour,
    font: int,
) -> None:
    """`text` about `height` pixels tall, centred on `centre`."""
    scale = max(height / 22.0, 0.1)
    thick = max(1, round(height / 9))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    org = (round(centre[0] - w / 2), round(centre[1] + h / 2))
    cv2.putText(patch, text, org, font, scale, colour, thick, cv2.LINE_AA)


def _stamp(
    img: np.ndarray,
    shadow: np.ndarray,
    patch: np.ndarray,
    mask: np.ndarray,
    centre: np.ndarray,
    angle: float,
) -> None:
    """Lay `patch` (where `mask` is set) on `img` turned by `angle` degrees about `centre`."""
    ph, pw = mask.shape
    turn = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, 1.0)
    corners = np.array([[0, 0, 1], [pw, 0, 1], [0, ph, 1], [pw, ph, 1]], float) @ turn.T
    corners += centre - np.array([pw / 2, ph / 2])
    h, w = img.shape[:2]
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int), [w, h])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    turn[:, 2] += centre - np.array([pw / 2, ph / 2]) - np.array([x0, y0])
    size = (int(x1 - x0), int(y1 - y0))
    laid = cv2.warpAffine(patch, turn, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpAffine(mask, turn, size, flags=cv2.INTER_LINEAR)
    a = alpha.astype(np.float32)[..., None] / 255
    roi = img[y0:y1, x0:x1]
    roi[:] = np.clip(roi * (1 - a) + laid * a, 0, 255).astype(np.uint8)
    np.maximum(shadow[y0:y1, x0:x1], alpha, out=shadow[y0:y1, x0:x1])


Piece = tuple[np.ndarray, np.ndarray, np.ndarray, float]  # patch, mask, centre, turn


def _stamp_all(pieces: list[Piece]) -> Draw:
    """A Draw that lays several things (dominoes of a chain, cards of a hand) in order."""

    def draw(img: np.ndarray, shadow: np.ndarray) -> None:
        for patch, mask, at, turn in pieces:
            _stamp(img, shadow, patch, mask, at, turn)

    return draw


def _canvas(w_mm: float, h_mm: float, mm: float) -> tuple[np.ndarray, np.ndarray]:
    w, h = max(4, round(w_mm * mm)), max(4, round(h_mm * mm))
    return np.zeros((h, w, 3), np.uint8), np.zeros((h, w), np.uint8)


def _keys(
    rng: np.random.Generator,
    patch: np.ndarray,
    mask: np.ndarray | None,
    rows: list[list[tuple[float, float, float]]],
    pitch: float,
    colours: tuple[Colour, Colour, Colour],
    legends: bool,
) -> None:
    """Keycaps: each (x, y, units wide) in pixels; a darker skirt, a lighter dished top, a
    legend in the middle or the top-left corner."""
    key, top, ink = colours
    font = FONTS[int(rng.integers(len(FONTS)))]
    corner_legend = rng.random() < 0.4
    gap, rim = pitch * rng.uniform(0.06, 0.12), pitch * rng.uniform(0.08, 0.16)
    for row in rows:
        for x, y, units in row:
            x1, y1 = x + units * pitch - gap, y + pitch - gap
            _rounded(patch, x, y, x1, y1, pitch * 0.1, key)
            if mask is not None:
                _rounded(mask, x, y, x1, y1, pitch * 0.1, 255)
            # the top sits a little up the cap: the skirt shows more below it
            _rounded(patch, x + rim, y + rim * 0.6, x1 - rim, y1 - rim * 1.3, pitch * 0.08, top)
            if legends and rng.random() < 0.93:
                text = LEGENDS[int(rng.integers(len(LEGENDS)))]
                if corner_legend:
                    at = (x + rim + pitch * 0.18, y + rim + pitch * 0.2)
                else:
                    at = ((x + x1) / 2, (y + y1) / 2 - rim * 0.3)
                _text(patch, text, at, pitch * rng.uniform(0.22, 0.4), ink, font)


def _keyboard(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    """A computer keyboard (or a laptop's deck): rows of keycaps with legends."""
    pitch_mm = rng.uniform(17.5, 19.5)
    rows_used = KEY_ROWS[: int(rng.integers(3, 6))] if rng.random() < 0.3 else KEY_ROWS
    function_row = rng.random() < 0.6
    width_u, height_u = 15.0, len(rows_used) + (1.0 if function_row else 0.0)
    numpad = rng.random() < 0.3
    if numpad:
        width_u += 4.5
    margin = rng.uniform(6, 25)
    patch, mask = _canvas(width_u * pitch_mm + 2 * margin, height_u * pitch_mm + 2 * margin, mm)
    dark = rng.random() < 0.55
    body = _grey(rng, 15, 60) if dark else _grey(rng, 170, 235)
    key = _grey(rng, 10, 55) if rng.random() < (0.8 if dark else 0.25) else _grey(rng, 175, 245)
    top = tuple(float(min(255, v * 1.12 + 8)) for v in key)
    ink: Colour = _contrast(key) if rng.random() < 0.85 else _vivid(rng)
    patch[:] = np.array(body, np.float32)
    mask[:] = 255
    pitch, m = pitch_mm * mm, margin * mm
    laid: list[list[tuple[float, float, float]]] = []
    y = m
    if function_row:
        laid.append([(m + pitch * (i + i // 4 * 0.5), y, 1.0) for i in range(13)])
        y += pitch
    for units in rows_used:
        x, row = m, []
        for u in units:
            row.append((x, y, float(u)))
            x += u * pitch
        laid.append(row)
        y += pitch
    if numpad:
        x0 = m + 15.5 * pitch
        for r in range(min(5, len(laid))):
            laid.append([(x0 + i * pitch, m + r * pitch, 1.0) for i in range(4)])
    _keys(rng, patch, None, laid, pitch, (key, top, ink), legends=rng.random() < 0.9)
    angle = rng.uniform(0, 360)
    return lambda img, shadow: _stamp(img, shadow, patch, mask, c, angle)


def _keypad(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    """A calculator or a number pad: a small grid of keys, maybe under a display."""
    cols, rows = int(rng.integers(3, 6)), int(rng.integers(4, 7))
    pitch_mm = rng.uniform(11, 19)
    display = rng.random() < 0.6
    margin = rng.uniform(4, 10)
    w_mm = cols * pitch_mm + 2 * margin
    h_mm = (rows + (1.6 if display else 0)) * pitch_mm + 2 * margin
    patch, mask = _canvas(w_mm, h_mm, mm)
    body = _grey(rng, 20, 70) if rng.random() < 0.7 else _grey(rng, 160, 230)
    _rounded(patch, 0, 0, patch.shape[1] - 1, patch.shape[0] - 1, 6 * mm, body)
    _rounded(mask, 0, 0, mask.shape[1] - 1, mask.shape[0] - 1, 6 * mm, 255)
    pitch, m = pitch_mm * mm, margin * mm
    y0 = m
    if display:
        screen = (rng.uniform(90, 140), rng.uniform(140, 180), rng.uniform(120, 160))
        cv2.rectangle(
            patch, (round(m), round(m)), (round(w_mm * mm - m), round(m + pitch)), screen, -1
        )
        y0 += pitch * 1.6
    key = _grey(rng, 30, 90) if rng.random() < 0.5 else _grey(rng, 180, 240)
    top = tuple(float(min(255, v * 1.1 + 10)) for v in key)
    laid = [[(m + i * pitch, y0 + r * pitch, 1.0) for i in range(cols)] for r in range(rows)]
    _keys(rng, patch, None, laid, pitch, (key, top, _contrast(key)), legends=True)
    angle = rng.uniform(0, 360)
    return lambda img, shadow: _stamp(img, shadow, patch, mask, c, angle)


def _pips(patch: np.ndarray, n: int, cx: float, cy: float, half: float, colour: Colour) -> None:
    for gx, gy in PIP_GRID[n]:
        centre = (round((cx + gx * half * 0.55) * 16), round((cy + gy * half * 0.55) * 16))
        cv2.circle(patch, centre, round(half * 0.16 * 16), colour, -1, cv2.LINE_AA, 4)


def _domino_patch(
    rng: np.random.Generator, mm: float, body: Colour, ink: Colour
) -> tuple[np.ndarray, np.ndarray]:
    w_mm = rng.uniform(20, 26)
    h_mm = w_mm * rng.uniform(1.9, 2.05)
    patch, mask = _canvas(w_mm, h_mm, mm)
    h, w = mask.shape
    edge = tuple(float(v * 0.8) for v in body)
    _rounded(patch, 0, 0, w - 1, h - 1, w * 0.12, edge)
    _rounded(mask, 0, 0, w - 1, h - 1, w * 0.12, 255)
    _rounded(patch, w * 0.06, h * 0.03, w * 0.94, h * 0.97, w * 0.1, body)
    cv2.line(
        patch, (round(w * 0.15), h // 2), (round(w * 0.85), h // 2), ink, max(1, round(w * 0.04))
    )
    for half in (0, 1):
        pips = int(rng.integers(0, 7))
        _pips(patch, pips, w / 2, h * (0.25 + 0.5 * half), w * 0.5, ink)
    return patch, mask


def _dominoes(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    """A few dominoes in a line (a played chain) or scattered: ivory, white or black."""
    black = rng.random() < 0.35
    body = _grey(rng, 15, 40) if black else _grey(rng, 205, 245)
    ink = (235.0, 235.0, 235.0) if black else (25.0, 25.0, 25.0)
    n = int(rng.integers(1, 9))
    chain = rng.random() < 0.5
    angle = rng.uniform(0, 360)
    step = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))]) * 26 * mm
    pieces: list[Piece] = []
    for i in range(n):
        patch, mask = _domino_patch(rng, mm, body, ink)
        if chain:
            at, turn = c + step * (i - n / 2), angle + 90
        else:
            at, turn = c + rng.normal(0, 40 * mm, 2), rng.uniform(0, 360)
        pieces.append((patch, mask, at, turn))

    return _stamp_all(pieces)


def _suit_mark(
    patch: np.ndarray, suit: int, cx: float, cy: float, r: float, colour: Colour
) -> None:
    s = 16
    if suit == 0:  # diamond
        pts = np.array([[cx, cy - r], [cx + r * 0.75, cy], [cx, cy + r], [cx - r * 0.75, cy]])
        cv2.fillConvexPoly(patch, np.round(pts * s).astype(np.int32), colour, cv2.LINE_AA, 4)
        return
    lobes = (
        [(-0.45, -0.3), (0.45, -0.3)] if suit in (1, 2) else [(-0.45, 0.1), (0.45, 0.1), (0, -0.4)]
    )
    for dx, dy in lobes:
        cv2.circle(
            patch,
            (round((cx + dx * r) * s), round((cy + dy * r) * s)),
            round(r * 0.5 * s),
            colour,
            -1,
            cv2.LINE_AA,
            4,
        )
    if suit == 1:  # heart: two lobes over a point
        pts = np.array([[cx - r * 0.92, cy - 0.2 * r], [cx + r * 0.92, cy - 0.2 * r], [cx, cy + r]])
    elif suit == 2:  # spade: a point over two lobes, upside down, with a stem
        pts = np.array(
            [[cx - r * 0.92, cy - 0.1 * r], [cx + r * 0.92, cy - 0.1 * r], [cx, cy - r * 1.1]]
        )
        cv2.circle(
            patch,
            (round((cx - 0.45 * r) * s), round((cy + 0.1 * r) * s)),
            round(r * 0.5 * s),
            colour,
            -1,
            cv2.LINE_AA,
            4,
        )
        cv2.circle(
            patch,
            (round((cx + 0.45 * r) * s), round((cy + 0.1 * r) * s)),
            round(r * 0.5 * s),
            colour,
            -1,
            cv2.LINE_AA,
            4,
        )
    else:  # club: three lobes on a stem
        pts = np.array([[cx - r * 0.2, cy + r], [cx + r * 0.2, cy + r], [cx, cy]])
    cv2.fillConvexPoly(patch, np.round(pts * s).astype(np.int32), colour, cv2.LINE_AA, 4)


def _card_patch(
    rng: np.random.Generator, mm: float, back: Colour | None
) -> tuple[np.ndarray, np.ndarray]:
    w_mm, h_mm = (63, 88) if rng.random() < 0.7 else (57, 89)
    patch, mask = _canvas(w_mm, h_mm, mm)
    h, w = mask.shape
    _rounded(mask, 0, 0, w - 1, h - 1, 3 * mm, 255)
    _rounded(patch, 0, 0, w - 1, h - 1, 3 * mm, _grey(rng, 230, 252, 3))
    if back is not None:  # face down: a patterned back inside a white border
        inner = (4 * mm, 4 * mm, w - 4 * mm, h - 4 * mm)
        _rounded(patch, *inner, 2 * mm, back)
        light = tuple(float(min(255, v + 70)) for v in back)
        step = max(3, round(rng.uniform(2.5, 5) * mm))
        for k in range(-h, w + h, step):
            cv2.line(patch, (k, 0), (k + h, h), light, 1, cv2.LINE_AA)
            cv2.line(patch, (k + h, 0), (k, h), light, 1, cv2.LINE_AA)
        cv2.rectangle(patch, (0, 0), (w - 1, h - 1), _grey(rng, 230, 252, 3), round(4 * mm))
        return patch, mask
    suit = int(rng.integers(4))
    ink = (40.0, 30.0, 200.0) if suit in (0, 1) else (25.0, 25.0, 25.0)
    rank = "A23456789JQK"[int(rng.integers(12))] if rng.random() < 0.92 else "10"
    font = FONTS[int(rng.integers(2))]
    for flip in (False, True):
        corner = np.zeros_like(patch[: h // 4, : w // 5])
        cmask = np.zeros(corner.shape[:2], np.uint8)
        ch, cw = cmask.shape
        _text(corner, rank, (cw / 2, ch * 0.3), ch * 0.3, ink, font)
        _text(cmask, rank, (cw / 2, ch * 0.3), ch * 0.3, 255, font)
        _suit_mark(corner, suit, cw / 2, ch * 0.72, ch * 0.14, ink)
        _suit_mark(cmask, suit, cw / 2, ch * 0.72, ch * 0.14, 255)
        if flip:
            corner, cmask = corner[::-1, ::-1], cmask[::-1, ::-1]
            region = patch[h - ch :, w - cw :]
        else:
            region = patch[:ch, :cw]
        region[cmask > 60] = corner[cmask > 60]
    if rank in "JQK":  # a court card: a framed picture
        x0, y0, x1, y1 = w * 0.2, h * 0.17, w * 0.8, h * 0.83
        cv2.rectangle(patch, (round(x0), round(y0)), (round(x1), round(y1)), _vivid(rng), -1)
        cv2.rectangle(
            patch, (round(x0), round(y0)), (round(x1), round(y1)), ink, max(1, round(mm * 0.6))
        )
        cv2.ellipse(
            patch, ((w / 2, h * 0.35), (w * 0.25, w * 0.3), 0), _vivid(rng), -1, cv2.LINE_AA
        )
    else:
        count = {"A": 1, "10": 10}.get(rank, int(rank) if rank.isdigit() else 1)
        cols = 1 if count < 4 else 2
        per = int(np.ceil(count / cols))
        r = h * (0.12 if count == 1 else 0.055)
        for i in range(count):
            col, row = i // per, i % per
            cx = w / 2 if cols == 1 else w * (0.32 + 0.36 * col)
            cy = h * (0.22 + 0.56 * (row + 0.5) / per)
            _suit_mark(patch, suit, cx, cy, r, ink)
    return patch, mask


def _cards(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    """Playing cards: one, a fanned hand, a face-down deck, or a few scattered."""
    n = int(rng.integers(1, 7))
    back = (160.0, 40.0, 30.0) if rng.random() < 0.5 else (40.0, 40.0, 170.0)
    fan = rng.random() < 0.4
    base = rng.uniform(0, 360)
    pieces: list[Piece] = []
    for i in range(n):
        down = rng.random() < 0.3
        patch, mask = _card_patch(rng, mm, back if down else None)
        if fan:
            turn = base + (i - n / 2) * rng.uniform(8, 15)
            along = np.array([np.cos(np.radians(base)), np.sin(np.radians(base))])
            at = c + along * (i - n / 2) * 12 * mm
        else:
            at, turn = c + rng.normal(0, 50 * mm, 2), rng.uniform(0, 360)
        pieces.append((patch, mask, at, turn))

    return _stamp_all(pieces)


def _chips(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    """Poker chips seen from above: a coloured disc with edge spots and an inner ring."""
    n = int(rng.integers(1, 9))
    spots = int(rng.choice([4, 6, 8]))
    centres = [c + rng.normal(0, 30 * mm, 2) for _ in range(n)]
    colours = [_vivid(rng) if rng.random() < 0.8 else _grey(rng, 20, 240) for _ in range(n)]

    def draw(img: np.ndarray, shadow: np.ndarray) -> None:
        s = 16
        for at, colour in zip(centres, colours, strict=True):
            r = 19.5 * mm
            p = (round(at[0] * s), round(at[1] * s))
            cv2.circle(shadow, p, round(r * s), 255, -1, cv2.LINE_AA, 4)
            cv2.circle(img, p, round(r * s), colour, -1, cv2.LINE_AA, 4)
            for k in range(spots):
                a = 2 * np.pi * k / spots
                q = (
                    round((at[0] + np.cos(a) * r * 0.85) * s),
                    round((at[1] + np.sin(a) * r * 0.85) * s),
                )
                cv2.circle(img, q, round(r * 0.14 * s), (235, 235, 235), -1, cv2.LINE_AA, 4)
            cv2.circle(
                img, p, round(r * 0.6 * s), (235, 235, 235), max(1, round(mm)), cv2.LINE_AA, 4
            )

    return draw


def _remote(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    """A TV remote: a long dark body with small round and square buttons."""
    w_mm, h_mm = rng.uniform(38, 55), rng.uniform(140, 210)
    patch, mask = _canvas(w_mm, h_mm, mm)
    h, w = mask.shape
    body = _grey(rng, 15, 60) if rng.random() < 0.8 else _grey(rng, 180, 230)
    _rounded(patch, 0, 0, w - 1, h - 1, w * 0.25, body)
    _rounded(mask, 0, 0, w - 1, h - 1, w * 0.25, 255)
    pitch = w / 3.4
    button = _grey(rng, 60, 120) if np.mean(body) < 100 else _grey(rng, 90, 150)
    y = h * 0.12
    cv2.circle(
        patch, (round(w * 0.75), round(y)), round(pitch * 0.3), (40, 40, 200), -1, cv2.LINE_AA
    )
    y += pitch * 1.5
    rows = []
    while y < h * 0.9:
        rows.append([(w * 0.1 + i * pitch, y, 0.9) for i in range(3)])
        y += pitch
    _keys(rng, patch, None, rows, pitch, (button, button, _contrast(button)), legends=True)
    angle = rng.uniform(0, 360)
    return lambda img, shadow: _stamp(img, shadow, patch, mask, c, angle)


def _pen(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    """A pen or pencil: a long thin round body, lit along its middle, with a cap or a tip."""
    w_mm, h_mm = rng.uniform(7, 11), rng.uniform(120, 160)
    patch, mask = _canvas(w_mm, h_mm, mm)
    h, w = mask.shape
    colour = np.array(_vivid(rng) if rng.random() < 0.6 else _grey(rng, 10, 230), np.float32)
    across = np.abs(np.linspace(-1, 1, w, dtype=np.float32))
    shade = (1.15 - 0.5 * across**2)[None, :, None]
    patch[:] = np.clip(colour * shade, 0, 255).astype(np.uint8)
    mask[:] = 255
    tip = max(2, round(h * 0.08))
    pts = np.array([[0, h - tip], [w - 1, h - tip], [w // 2, h - 1]], np.int32)
    mask[h - tip :] = 0
    cv2.fillConvexPoly(mask, pts, 255, cv2.LINE_AA)
    cv2.fillConvexPoly(patch, pts, (120, 170, 210), cv2.LINE_AA)
    angle = rng.uniform(0, 360)
    return lambda img, shadow: _stamp(img, shadow, patch, mask, c, angle)


def _rack(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    """A tile rack: a long bar, wood or plastic, with a lit lip along one edge."""
    w_mm, h_mm = rng.uniform(280, 400), rng.uniform(22, 40)
    patch, mask = _canvas(w_mm, h_mm, mm)
    h = mask.shape[0]
    colour = _vivid(rng) if rng.random() < 0.5 else (40.0, 90.0, 150.0)
    patch[:] = np.array(colour, np.float32)
    lip = max(1, round(h * 0.2))
    patch[:lip] = np.clip(np.array(colour) * 1.35 + 20, 0, 255)
    patch[-lip:] = np.array(colour) * 0.6
    mask[:] = 255
    angle = rng.uniform(0, 360)
    return lambda img, shadow: _stamp(img, shadow, patch, mask, c, angle)


def _phone_icons(rng: np.random.Generator, c: np.ndarray, mm: float) -> Draw:
    """A phone face up with its home screen on: a grid of rounded, coloured app icons."""
    w_mm, h_mm = rng.uniform(68, 78), rng.uniform(145, 165)
    patch, mask = _canvas(w_mm, h_mm, mm)
    h, w = mask.shape
    _rounded(patch, 0, 0, w - 1, h - 1, 9 * mm, _grey(rng, 10, 40))
    _rounded(mask, 0, 0, w - 1, h - 1, 9 * mm, 255)
    screen = _vivid(rng)
    _rounded(patch, 3 * mm, 3 * mm, w - 3 * mm, h - 3 * mm, 7 * mm, tuple(v * 0.6 for v in screen))
    icon, pitch = 11 * mm, (w - 6 * mm) / 4
    for r in range(int(rng.integers(3, 7))):
        for i in range(4):
            x = 3 * mm + pitch * i + (pitch - icon) / 2
            y = 12 * mm + r * pitch * 1.2
            _rounded(patch, x, y, x + icon, y + icon, icon * 0.22, _vivid(rng))
    angle = rng.uniform(0, 360)
    return lambda img, shadow: _stamp(img, shadow, patch, mask, c, angle)


# Keyboards and dominoes come up most: they are what real tables showed as false tiles.
LOOKALIKES = (
    _keyboard,
    _keyboard,
    _keypad,
    _dominoes,
    _dominoes,
    _cards,
    _chips,
    _remote,
    _pen,
    _rack,
    _phone_icons,
)
