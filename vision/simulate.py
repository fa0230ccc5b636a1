"""Stand-ins for the detector and classifier, to test layout and decoding on their own.

`simulated_probs` draws classifier outputs that are calibrated by construction: logits are
the true class's one-hot scaled by a per-tile sharpness `a`, plus unit Gaussian noise, and the
probabilities are softmax(a * logits), the exact posterior of that noise model. So a tile shown
with p = 0.7 is right 70 % of the time, as a temperature-scaled classifier should be.
`lay_out_hand` places a Hand JSON as the rule book lays a declared win out (flat boxes and face
corners, no pixels) at any rotation; `tiles_from_annotations` reads the synthetic scene
generator's labels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from scoring.tiles import BACK, CLASSES
from vision.geometry import canonical_order
from vision.types import Tiles

FloatArray = npt.NDArray[np.float64]
Slot = tuple[str, str, bool, bool, int | None]  # code, role, sideways, face-down, meld id


def simulated_probs(
    codes: Sequence[str], rng: np.random.Generator, sharpness: tuple[float, float] = (3.0, 6.0)
) -> npt.NDArray[np.float32]:
    """Calibrated (n, 43) probabilities for tiles whose true codes are `codes`."""
    n = len(codes)
    truth = np.array([CLASSES.index(c) for c in codes], dtype=int)
    a = rng.uniform(*sharpness, size=(n, 1))
    logits = rng.normal(0.0, 1.0, size=(n, len(CLASSES)))
    logits[np.arange(n), truth] += a[:, 0]
    z = a * logits
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return np.asarray(p / p.sum(axis=1, keepdims=True), dtype=np.float32)


def read_as(tiles: Tiles, index: int, readings: Mapping[str, float]) -> None:
    """Set one tile's classifier probabilities by hand (a misread, a doubt): `readings`
    maps codes to their probabilities, every other class 0."""
    tiles.probs[index] = 0
    for code, p in readings.items():
        tiles.probs[index, CLASSES.index(code)] = p


def tiles_from_annotations(
    annotations: Sequence[Mapping[str, Any]],
    rng: np.random.Generator,
    sharpness: tuple[float, float] = (3.0, 6.0),
    jitter: float = 0.0,
    sideways_known: bool = True,
    canonical: bool = False,
) -> Tiles:
    """Ground-truth boxes and corners with simulated classifier probabilities.

    A face-down tile's true class is `back`, as the classifier sees it. `jitter` moves each
    corner by Gaussian noise of that many face widths (a detector's error);
    `sideways_known=False` drops the sideways flags, leaving them to the geometry;
    `canonical=True` turns each face's corners half round where its up points into the
    lower-right half-plane, as the shipped detector reports them (it cannot tell a face from
    the same face upside down).
    """
    n = len(annotations)
    corners = np.array([a["corners"] for a in annotations], dtype=np.float32).reshape(n, 4, 2)
    if jitter and n:
        width = np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1).reshape(n, 1, 1)
        corners = corners + rng.normal(0, jitter, corners.shape) * width
        corners = corners.astype(np.float32)
    if canonical and n:
        corners = canonical_order(corners)
    xyxy = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
    down = np.array([bool(a.get("face_down")) for a in annotations])
    codes = [BACK if d else str(a["code"]) for a, d in zip(annotations, down, strict=True)]
    return Tiles(
        xyxy=xyxy.reshape(n, 4).astype(np.float32),
        corners=corners,
        confidence=np.ones(n, dtype=np.float32),
        sideways=np.array([bool(a.get("sideways")) and sideways_known for a in annotations]),
        face_down=down,
        probs=simulated_probs(codes, rng, sharpness) if n else None,  # type: ignore[arg-type]
    )


def lay_out_hand(
    hand: Mapping[str, Any],
    *,
    angle_deg: float = 0.0,
    arrangement: str = "melds_right",
    kong_style: str = "ends",
    winning_gap: float = 0.6,
    tile_width: float = 60.0,
) -> list[dict[str, Any]]:
    """Annotations (scene-generator style) for a hand laid out flat as the rule book says; a
    hand waiting to win (no `winning_tile`) as a player shows it, no tile set apart.

    arrangement: "melds_right", "melds_left" or "melds_below" (a second row); kong_style for a
    concealed kong: "ends" (two ends face-down) or "all" (four face-down). The whole table is
    turned clockwise by `angle_deg` about the origin.
    """
    w, h = tile_width, tile_width * 1.35
    slots: list[Slot] = []
    x_of: list[float] = []
    y_of: list[float] = []

    def place(items: list[Slot], x: float, y: float) -> float:
        for item in items:
            along = h if item[2] else w
            x_of.append(x + along / 2)
            y_of.append(y + (h - (w if item[2] else h) / 2))  # near edges aligned
            slots.append(item)
            x += along + 1.0
        return x

    melds = [_meld_items(m, k, kong_style) for k, m in enumerate(hand.get("melds", []))]
    concealed: list[Slot] = [(str(t), "concealed", False, False, None) for t in hand["concealed"]]
    x = 0.0
    if arrangement == "melds_left":
        for items in melds:
            x = place(items, x, 0.0) + 0.4 * w
        x += 0.4 * w
    x = place(concealed, x, 0.0)
    if hand.get("winning_tile") is not None:  # none in a hand waiting to win
        winning: list[Slot] = [(str(hand["winning_tile"]), "winning", False, False, None)]
        x = place(winning, x + winning_gap * w, 0.0)
    if arrangement == "melds_right":
        x += 0.8 * w
        for items in melds:
            x = place(items, x, 0.0) + 0.4 * w
    mx = 0.0
    if arrangement == "melds_below":
        for items in melds:
            mx = place(items, mx, 1.3 * h) + 0.4 * w
    flowers = hand.get("flowers", [])
    if isinstance(flowers, list) and flowers:
        aside: list[Slot] = [(str(f), "flower", False, False, None) for f in flowers]
        place(aside, mx + w, 1.3 * h)  # a second row, after any melds there
    return _annotations(slots, np.array(x_of), np.array(y_of), w, h, angle_deg)


def _meld_items(meld: Mapping[str, Any], k: int, kong_style: str) -> list[Slot]:
    tiles = [str(t) for t in meld["tiles"]]
    if meld["type"] == "kong" and meld.get("concealed"):
        down = [True] * 4 if kong_style == "all" else [True, False, False, True]
        return [(t, "meld", False, d, k) for t, d in zip(tiles, down, strict=True)]
    if meld["type"] == "chow":  # the claimed tile moved to the left end, turned
        claimed = str(meld.get("claimed_tile", tiles[0]))
        tiles.remove(claimed)
        return [(t, "meld", i == 0, False, k) for i, t in enumerate([claimed, *tiles])]
    side = str(meld.get("claimed_from", "left"))
    turned = {"left": 0, "right": len(tiles) - 1}.get(side, 1)
    return [(t, "meld", i == turned, False, k) for i, t in enumerate(tiles)]


def _annotations(
    slots: list[Slot],
    xs: FloatArray,
    ys: FloatArray,
    w: float,
    h: float,
    angle_deg: float,
) -> list[dict[str, Any]]:
    turn = np.radians(angle_deg)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    upright = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    sideways_face = upright @ np.array([[0.0, 1.0], [-1.0, 0.0]])  # a quarter turn clockwise
    out = []
    for (code, role, sideways, down, meld), x, y in zip(slots, xs, ys, strict=True):
        local = (sideways_face if sideways else upright) + [x, y]
        corners = (local @ rotation.T) + [2000.0, 2000.0]
        x1, y1 = corners.min(axis=0)
        x2, y2 = corners.max(axis=0)
        out.append(
            {
                "code": BACK if down else code,
                "hidden_code": code if down else None,
                "bbox": [float(x1), float(y1), float(x2 - x1), float(y2 - y1)],
                "corners": corners.tolist(),
                "sideways": sideways,
                "face_down": down,
                "role": role,
                "meld_id": meld,
            }
        )
    return out
