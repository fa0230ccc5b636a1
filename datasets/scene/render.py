"""One synthetic phone photo: lay tiles out, light them, shoot them, label every visible tile.

`render_scene` is the whole engine's entry point; everything random is drawn from the one
generator passed in, so a seed reproduces the picture and its labels exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from datasets.scene import effects
from datasets.scene.art import FaceSet, source_codes, usable_sources
from datasets.scene.backgrounds import CLUTTER_MM_PER_TEXEL, TEXTURE_PX, clutter, table_texture
from datasets.scene.body import Drawn, Light, TileStyle, draw_tile
from datasets.scene.camera import Camera, frame_layout
from datasets.scene.labels import annotate
from datasets.scene.layout import (
    Placement,
    declared_win,
    enrollment,
    hand_in_play,
    pile,
    scattered,
    table_extras,
    without_winning_tile,
)
from scoring.tiles import FLOWERS, PLAYING, STANDARD_ROWS

KINDS = (
    "declared_win",
    "waiting_hand",
    "rows",
    "scattered",
    "pile",
    "enrollment",
    "no_tiles",
    "cluttered_win",
)
# Each lays a declared win out; a waiting hand is the same hand before its winning tile came;
# a cluttered win is a declared win on a table crowded with things (keyboards among them).
WINS = ("declared_win", "waiting_hand", "cluttered_win")
# Tables crowded with things, look-alikes among them, none labelled.
CROWDED = ("no_tiles", "cluttered_win")


@dataclass
class Scene:
    """One rendered photo and its labels (see docs/INTERFACES.md)."""

    image: np.ndarray  # BGR uint8, long side = size
    hand: dict[str, Any] | None  # Hand JSON for a declared win
    annotations: list[dict[str, Any]]
    meta: dict[str, Any] = field(default_factory=dict)  # how it was drawn, for debugging


def _random_hand(rng: np.random.Generator) -> dict[str, Any]:
    from scoring.generate import random_hand

    return random_hand(random.Random(int(rng.integers(2**62))))


def _wall(codes: frozenset[str]) -> list[str]:
    """The tiles of a full set this source can draw: four of each playing tile, one flower each."""
    return [c for c in PLAYING if c in codes] * 4 + [c for c in FLOWERS if c in codes]


def _image_size(rng: np.random.Generator, size: int, kind: str) -> tuple[int, int]:
    ratio = float(rng.choice([4 / 3, 16 / 9, 1.0], p=[0.75, 0.15, 0.1]))
    short = round(size / ratio)
    portrait = rng.random() < (0.15 if kind in (*WINS, "rows", "enrollment") else 0.4)
    return (short, size) if portrait else (size, short)


def _layout(
    kind: str, rng: np.random.Generator, style: TileStyle, codes: frozenset[str]
) -> tuple[list[Placement], dict[str, Any] | None]:
    if kind in WINS:
        hand = _random_hand(rng)
        flowers = hand.get("flowers")
        have = [f for f in FLOWERS if f in codes]
        if isinstance(flowers, int):
            # A bare count: the photo shows particular flowers, so the label names them.
            count = flowers if flowers <= len(have) else 0
            hand["flowers"] = [str(f) for f in rng.choice(have, size=count, replace=False)]
        elif flowers and not all(f in codes for f in flowers):
            hand["flowers"] = []  # this set has no flower tiles: none on the table
        placements = declared_win(hand, style, rng)
        if kind == "waiting_hand":
            placements = without_winning_tile(hand, placements)
        if rng.random() < 0.35:  # the rest of the table: other players' discards or wall
            spare = Counter(_wall(codes)) - Counter(p.code for p in placements)
            xy = np.array([p.pose.origin[:2] for p in placements])
            bounds = np.array([xy.min(axis=0), xy.max(axis=0)])
            placements += table_extras(list(spare.elements()), style, rng, bounds)
        return placements, hand
    if kind == "no_tiles":
        return [], None
    if kind == "enrollment":
        rows = [[c for c in row if c in codes] for row in STANDARD_ROWS]
        return enrollment([row for row in rows if row], style, rng), None
    wall = _wall(codes)
    if kind == "rows":
        return hand_in_play(_random_hand(rng), style, rng, codes), None
    n = int(rng.integers(6, 30)) if kind == "scattered" else int(rng.integers(8, 24))
    picked = [wall[i] for i in rng.choice(len(wall), size=min(n, len(wall)), replace=False)]
    return (
        scattered(picked, style, rng) if kind == "scattered" else pile(picked, style, rng)
    ), None


def _camera(
    kind: str,
    rng: np.random.Generator,
    placements: list[Placement],
    style: TileStyle,
    size: tuple[int, int],
) -> tuple[Camera, dict[str, float]]:
    """A phone camera as people hold one over a table, framing the layout; and its settings."""
    points = []
    # Frame the hand; discards and wall around it may run out of the picture.
    framed = [p for p in placements if p.role != "loose"] or placements
    for p in framed:
        for du in (-1, 1):
            for dv in (-1, 1):
                points.append(
                    p.pose.origin
                    + du * p.pose.u * style.width / 2
                    + dv * p.pose.v * style.height / 2
                )
    if not placements:  # a photo of the table alone: frame a patch of it, as wide as a hand
        half = rng.uniform(60, 170)
        points = [np.array([x, y, 0.0]) for x in (-half, half) for y in (-half * 0.6, half * 0.6)]
    pts = np.array(points)
    # Standing rows are shot from lower down and from the front, to read their faces; flat
    # layouts mostly from the player's seat, now and then from anywhere around the table.
    tilt = rng.uniform(35, 62) if kind == "rows" else float(rng.triangular(0, 20, 60))
    if kind == "enrollment":  # from above, the rows across the frame
        tilt = float(rng.triangular(0, 10, 40))
    if kind == "rows":
        # Mostly from the front; now and then from along the row, as a player shoots a
        # rack from beside it (the far faces then narrow to slivers behind the near ones).
        azimuth = rng.normal(0, 12) if rng.random() < 0.7 else rng.uniform(-70, 70)
    elif kind == "enrollment":
        azimuth = rng.normal(0, 5)
    else:
        azimuth = rng.normal(0, 8) if rng.random() < 0.9 else rng.uniform(-180, 180)
    # Mostly level; now and then any turn (a photo from across the table, no EXIF turn).
    roll = rng.normal(0, 4) if rng.random() < 0.88 else rng.uniform(-180, 180)
    if kind == "enrollment":
        roll = rng.normal(0, 4)
    fill = rng.uniform(0.45, 0.8) if kind == "pile" else rng.uniform(0.65, 1.0)
    if kind in WINS and rng.random() < 0.08:
        fill = rng.uniform(1.2, 2.0)  # a close-up: part of the hand, tiles cut by the frame
    spill = rng.uniform(0.05, 0.3) if rng.random() < 0.15 else 0.0
    if kind == "enrollment":  # the whole set in the frame, as the guide asks
        fill, spill = min(fill, 0.9), 0.0
    hfov = rng.uniform(55, 75)
    cam = frame_layout(pts, size, rng, tilt, azimuth, roll, fill, hfov, spill)
    # People turn the phone to suit the layout: a row running up the frame gets portrait.
    span = np.ptp(cam.project(pts), axis=0)
    if (span[1] > span[0]) != (size[1] > size[0]) and rng.random() < 0.85:
        size = (size[1], size[0])
        cam = frame_layout(pts, size, rng, tilt, azimuth, roll, fill, hfov, spill)
    # The table is all the scene has: tilt less while a corner of the frame sees the horizon.
    while _sees_horizon(cam) and tilt > 0:
        tilt = max(tilt - 5.0, 0.0)
        cam = frame_layout(pts, size, rng, tilt, azimuth, roll, fill, hfov, spill)
    return cam, {"tilt": tilt, "azimuth": azimuth, "roll": roll, "fill": fill, "hfov": hfov}


def _sees_horizon(cam: Camera, margin_deg: float = 8.0) -> bool:
    """True when a frame corner's ray does not dip at least `margin_deg` below the horizon."""
    w, h = cam.size
    corners = np.array([[0, 0], [w, 0], [0, h], [w, h]], float) - np.asarray(cam.center)
    rays = np.column_stack([corners / cam.focal, np.ones(4)]) @ cam.rotation  # to world
    rays /= np.linalg.norm(rays, axis=1, keepdims=True)
    return bool((rays[:, 2] > -np.sin(np.radians(margin_deg))).any())


def _light(rng: np.random.Generator) -> Light:
    elevation = np.radians(rng.uniform(35, 85))
    azimuth = rng.uniform(0, 2 * np.pi)
    direction = np.array(
        [
            np.cos(elevation) * np.cos(azimuth),
            np.cos(elevation) * np.sin(azimuth),
            np.sin(elevation),
        ]
    )
    ambient = rng.uniform(0.45, 0.7)
    diffuse = (1.0 - ambient) / direction[2] * rng.uniform(0.9, 1.05)
    return Light(direction, ambient, diffuse)


def _table(
    rng: np.random.Generator, cam: Camera, centre: np.ndarray, crowded: bool = False
) -> tuple[np.ndarray, str]:
    """The table texture laid on the z = 0 plane through the camera; `crowded`: a table with
    many things on it and no tiles."""
    px = int(np.clip(max(cam.size) * 0.8, 256, TEXTURE_PX)) // 32 * 32
    if crowded:
        texture, kind = clutter(rng, px, count=int(rng.integers(4, 14))), "clutter"
    else:
        texture, kind = table_texture(rng, None, px)
    mm = rng.uniform(0.2, 0.55)  # table millimetres per texel: about a pixel near the tiles
    if kind == "clutter":  # props are drawn to scale
        mm = CLUTTER_MM_PER_TEXEL
    mm *= TEXTURE_PX / px
    angle = rng.uniform(0, 2 * np.pi)
    c, s = np.cos(angle), np.sin(angle)
    # texel -> world (x, y, 1) on the table, centred on the layout, turned at random
    texel_to_world = np.array(
        [[c * mm, -s * mm, centre[0]], [s * mm, c * mm, centre[1]], [0, 0, 1]]
    )
    texel_to_world[:2, 2] -= texel_to_world[:2, :2] @ np.array([px / 2, px / 2])
    k = np.array([[cam.focal, 0, cam.center[0]], [0, cam.focal, cam.center[1]], [0, 0, 1]])
    t = -cam.rotation @ cam.position
    world_to_image = k @ np.column_stack([cam.rotation[:, 0], cam.rotation[:, 1], t])
    homography = world_to_image @ texel_to_world
    img = cv2.warpPerspective(
        texture, homography, cam.size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    return img, kind


def _shadows(
    canvas: np.ndarray,
    placements: list[Placement],
    style: TileStyle,
    cam: Camera,
    light: Light,
    rng: np.random.Generator,
) -> None:
    """Soft shadows cast on the table, drawn at quarter resolution and blurred."""
    h, w = canvas.shape[:2]
    q = 4
    mask = np.zeros((h // q + 1, w // q + 1), np.uint8)
    ld = light.direction / max(light.direction[2], 0.2)
    for p in placements:
        corners = []
        for du in (-1, 1):
            for dv in (-1, 1):
                for dw in (0, 1):
                    corners.append(
                        p.pose.origin
                        + du * p.pose.u * style.width / 2
                        + dv * p.pose.v * style.height / 2
                        + dw * p.pose.w * style.thickness
                    )
        pts = np.array(corners)
        on_table = pts - ld[None, :] * pts[:, 2:3]
        img = cam.project(np.vstack([on_table, pts[pts[:, 2] < 1.0]])) / q
        cv2.fillConvexPoly(mask, cv2.convexHull(img.astype(np.int32)), 255, cv2.LINE_AA)
    soft = cv2.GaussianBlur(mask, (0, 0), rng.uniform(1.0, 4.0))
    # light = 255 - strength * shadow, applied as one saturating uint8 multiply
    light_q = 255 - cv2.multiply(soft, np.full_like(soft, int(rng.uniform(64, 153))), scale=1 / 255)
    light_full = cv2.resize(light_q, (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(canvas, cv2.merge([light_full] * 3), dst=canvas, scale=1 / 255)


def _draw_tiles(
    canvas: np.ndarray,
    placements: list[Placement],
    faces: FaceSet,
    style: TileStyle,
    cam: Camera,
    light: Light,
    gains: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, dict[int, Drawn]]:
    """Paint every tile, far ones first (painter's algorithm); returns the id map (tile index
    + 1 per pixel, 0 = not a tile), the glossy-face mask and what each tile left behind."""
    ids = np.zeros(canvas.shape[:2], np.int16)
    gloss = np.zeros(canvas.shape[:2], np.uint8)
    centres = np.array([p.pose.origin + p.pose.w * style.thickness / 2 for p in placements])
    drawn = {}
    # Far to near by straight-line distance, not depth along the optical axis: seen from above,
    # of two touching tiles the one nearer the camera's foot hides the other's facing wall,
    # even when it lies a little deeper along the (tilted) axis.
    distance = np.linalg.norm(centres - cam.position, axis=1)
    for i in np.argsort(-distance, kind="stable"):
        p = placements[i]
        art = faces.face(p.code)
        lit = light
        if gains is not None:  # no two tiles lie quite flat: each catches the light a bit apart
            lit = Light(light.direction, light.ambient * gains[i], light.diffuse * gains[i])
        drawn[int(i)] = draw_tile(canvas, ids, gloss, int(i) + 1, p.pose, style, art, cam, lit)
    return ids, gloss, drawn


def render_scene(
    rng: np.random.Generator,
    sources: Sequence[str] = ("procedural",),
    kind: str = "declared_win",
    size: int = 1280,
    face_seed: int | None = None,
) -> Scene:
    """Render one labelled photo. `face_seed` fixes the set's faces (with one source, one
    design): photos drawn with the same seed show the same physical set, as a taught set's
    photos do; by default every photo draws a new one.

    Example:
        >>> scene = render_scene(np.random.default_rng(0), ("procedural",), "declared_win", 640)
        >>> scene.image.shape[1] == 640 or scene.image.shape[0] == 640
        True
    """
    if kind not in KINDS:
        raise ValueError(f"unknown scene kind {kind!r}; expected one of {', '.join(KINDS)}")
    usable = usable_sources(sources)
    if not usable:
        raise ValueError(f"no face source among {list(sources)} has its art on disk")
    source = str(rng.choice(usable))
    style = TileStyle.random(rng)
    style_seed = int(rng.integers(2**31))
    set_seed = style_seed if face_seed is None else face_seed
    faces = FaceSet(source, set_seed, style.ivory_bgr)
    if faces.dark_paper is not None:  # a black-faced set: its bodies are dark too
        style = replace(style, ivory_bgr=faces.dark_paper)
    codes = source_codes(source)

    placements, hand = _layout(kind, rng, style, codes)
    cam, view = _camera(kind, rng, placements, style, _image_size(rng, size, kind))
    light = _light(rng)

    centre = np.mean([p.pose.origin for p in placements], axis=0) if placements else np.zeros(3)
    canvas, table = _table(rng, cam, centre, crowded=kind in CROWDED)
    if placements:
        _shadows(canvas, placements, style, cam, light, rng)
        gains = np.clip(rng.normal(1.0, 0.025, len(placements)), 0.92, 1.08)
        ids, gloss, drawn = _draw_tiles(canvas, placements, faces, style, cam, light, gains)
    else:
        ids = np.zeros(canvas.shape[:2], np.int16)
        gloss, drawn = np.zeros(canvas.shape[:2], np.uint8), {}

    canvas = effects.apply_light(rng, canvas, gloss, effects.white_balance(rng))
    finger = bool(rng.random() < (0.3 if kind == "no_tiles" else 0.12))
    if finger:
        effects.finger(rng, canvas, ids)
    image = effects.camera_effects(rng, canvas)

    annotations, kept = annotate(placements, drawn, ids, source, faces.design)
    # The geometry behind the labels, for tests and debugging (references, no copies).
    meta = {
        "kind": kind,
        "source": source,
        "design": faces.design,
        "set_seed": set_seed,
        "table": table,
        "finger": finger,
        # Every tile of the hand has a label: the photo shows the whole win (close-ups may not).
        "hand_visible": hand is not None
        and all(i in set(kept) for i, p in enumerate(placements) if p.role != "loose"),
        **view,
        "camera": cam,
        "style": style,
        "light": light,
        "faces": faces,
        "placements": placements,
        "annotated": kept,
    }
    return Scene(image=image, hand=hand, annotations=annotations, meta=meta)
