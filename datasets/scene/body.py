"""Mahjong tile bodies in 3-D: an ivory front layer carrying the face art, a coloured back layer,
rounded corners, seen through the scene camera and drawn with the painter's algorithm.

Each tile is a rounded-rectangle prism. Local frame: u across the face (left to right as the face
reads), v up the face, w out of the face (w = 0 is the back, w = thickness the face). A `Pose` puts
that frame in the world, so lying face-up, face-down, standing or turned sideways are just poses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.scene.camera import Camera

SHIFT = 4  # sub-pixel bits for OpenCV polygon fills
ONE = 1 << SHIFT

# Back-layer colours seen on real sets: green, blue, yellow, orange, red, black, pink, teal.
BACK_COLOURS_BGR = (
    (70, 140, 40),
    (40, 110, 20),
    (160, 90, 20),
    (120, 60, 10),
    (40, 180, 220),
    (30, 120, 230),
    (40, 40, 170),
    (40, 35, 35),
    (150, 120, 230),
    (140, 140, 30),
    (200, 200, 200),
)


@dataclass(frozen=True)
class TileStyle:
    """One physical set: every tile on the table shares it."""

    width: float  # mm across the face
    height: float  # mm up the face
    thickness: float  # mm, face to back
    back_share: float  # share of the thickness that is the coloured back layer
    radius: float  # mm, corner rounding seen from the face
    ivory_bgr: tuple[int, int, int]
    back_bgr: tuple[int, int, int]
    gloss: float  # specular strength of the face

    @staticmethod
    def random(rng: np.random.Generator) -> TileStyle:
        width = rng.uniform(22.0, 30.0)
        height = width * rng.uniform(1.28, 1.42)
        thickness = width * rng.uniform(0.55, 0.85)
        warm = rng.uniform(0, 1)
        ivory = (
            int(rng.uniform(200, 245) - 35 * warm),
            int(rng.uniform(225, 250) - 10 * warm),
            int(rng.uniform(232, 252)),
        )
        back = np.array(BACK_COLOURS_BGR[rng.integers(len(BACK_COLOURS_BGR))], float)
        back = np.clip(back * rng.uniform(0.8, 1.2) + rng.normal(0, 12, 3), 0, 255)
        return TileStyle(
            width=width,
            height=height,
            thickness=thickness,
            back_share=rng.uniform(0.3, 0.6),
            radius=width * rng.uniform(0.08, 0.2),
            ivory_bgr=ivory,
            back_bgr=(int(back[0]), int(back[1]), int(back[2])),
            gloss=rng.uniform(0.0, 0.6),
        )


@dataclass(frozen=True)
class Pose:
    """Where a tile's local frame sits in the world: point = origin + u*U + v*V + w*W."""

    origin: np.ndarray  # centre of the back plane
    u: np.ndarray
    v: np.ndarray
    w: np.ndarray

    def to_world(self, local: np.ndarray) -> np.ndarray:
        return self.origin + local[:, :1] * self.u + local[:, 1:2] * self.v + local[:, 2:3] * self.w


def flat_pose(
    x: float, y: float, yaw_deg: float, style: TileStyle, face_down: bool = False, z: float = 0.0
) -> Pose:
    """A tile lying on the table, its face's top pointing along yaw (0 = away from the player)."""
    a = math.radians(yaw_deg)
    u = np.array([math.cos(a), math.sin(a), 0.0])
    v = np.array([-math.sin(a), math.cos(a), 0.0])
    if face_down:  # turned over about its long axis: the face reads mirrored from above
        return Pose(np.array([x, y, z + style.thickness]), -u, v, np.array([0.0, 0.0, -1.0]))
    return Pose(np.array([x, y, z]), u, v, np.array([0.0, 0.0, 1.0]))


def standing_pose(
    x: float, y: float, yaw_deg: float, style: TileStyle, lean_deg: float = 0
) -> Pose:
    """A tile standing on its bottom edge, face towards the player (-y) when yaw is 0.

    A positive lean tips its top away from the player (against a rack, or its neighbours).
    """
    a, lean = math.radians(yaw_deg), math.radians(lean_deg)
    u = np.array([math.cos(a), math.sin(a), 0.0])
    out = np.array([math.sin(a), -math.cos(a), 0.0])  # face normal, towards the player
    v = math.cos(lean) * np.array([0.0, 0.0, 1.0]) - math.sin(lean) * out
    w = math.cos(lean) * out + math.sin(lean) * np.array([0.0, 0.0, 1.0])
    origin = np.array([x, y, 0.0]) + v * style.height / 2
    # It rests on whichever bottom edge the lean puts lowest, not above or into the table.
    lowest = min(0.0, style.thickness * float(w[2]))
    return Pose(origin - np.array([0.0, 0.0, lowest]), u, v, w)


def outline(style: TileStyle, per_corner: int = 4) -> np.ndarray:
    """Rounded rectangle in (u, v), counter-clockwise, (n, 2)."""
    hw, hh, r = style.width / 2, style.height / 2, style.radius
    pts = []
    centres = ((hw - r, hh - r, 0), (-hw + r, hh - r, 90), (-hw + r, -hh + r, 180))
    for cx, cy, start in (*centres, (hw - r, -hh + r, 270)):
        for k in range(per_corner + 1):
            t = math.radians(start + 90 * k / per_corner)
            pts.append((cx + r * math.cos(t), cy + r * math.sin(t)))
    return np.array(pts)


def face_corners_local(style: TileStyle, face_down: bool = False) -> np.ndarray:
    """Face TL, TR, BR, BL (as the face reads upright) in local coordinates, (4, 3)."""
    hw, hh = style.width / 2, style.height / 2
    if face_down:  # the back cap, ordered so that TL is top-left when seen from the back
        return np.array([[hw, hh, 0.0], [-hw, hh, 0.0], [-hw, -hh, 0.0], [hw, -hh, 0.0]])
    t = style.thickness
    return np.array([[-hw, hh, t], [hw, hh, t], [hw, -hh, t], [-hw, -hh, t]])


@dataclass
class Light:
    direction: np.ndarray  # unit vector towards the light
    ambient: float
    diffuse: float


def _shade(bgr: tuple[int, int, int] | np.ndarray, normal: np.ndarray, light: Light) -> tuple:
    k = light.ambient + light.diffuse * max(0.0, float(np.dot(normal, light.direction)))
    return tuple(min(255.0, max(0.0, float(c) * k)) for c in bgr)


def _fixed(pts: np.ndarray) -> np.ndarray:
    return np.round(pts * ONE).astype(np.int32)


@dataclass
class Drawn:
    """What drawing one tile left behind: its silhouette and its face quad in pixels."""

    hull: np.ndarray  # (k, 2) float px, the tile's full silhouette
    corners: np.ndarray  # (4, 2) float px, visible cap TL TR BR BL
    facing: float  # cosine between the face's normal and the view: < 0 shows the back


def draw_tile(
    canvas: np.ndarray,
    ids: np.ndarray,
    gloss_mask: np.ndarray,
    tile_id: int,
    pose: Pose,
    style: TileStyle,
    face: np.ndarray,
    camera: Camera,
    light: Light,
) -> Drawn:
    """Paint one tile over `canvas` (BGR uint8) and mark its pixels `tile_id` in `ids`.

    `face` is the art (BGR, upright); it shows only where the face turns towards the camera.
    """
    ring = outline(style)
    n = len(ring)
    t, b = style.thickness, style.thickness * style.back_share
    levels = [0.0, b, t]
    world = [pose.to_world(np.column_stack([ring, np.full(n, z)])) for z in levels]
    img = [camera.project(p) for p in world]
    hull = cv2.convexHull(np.vstack(img).astype(np.float32)).reshape(-1, 2)
    cv2.fillConvexPoly(ids, _fixed(hull), tile_id, cv2.LINE_8, SHIFT)

    # Side walls: one flat-shaded quad per outline segment and layer, back faces culled.
    for i in range(n):
        j = (i + 1) % n
        edge = ring[j] - ring[i]
        normal = edge[1] * pose.u - edge[0] * pose.v  # outward for a counter-clockwise ring
        normal /= np.linalg.norm(normal)
        mid = (world[0][i] + world[2][j]) / 2
        if not camera.faces_camera(mid, normal):
            continue
        for lo, hi, colour in ((0, 1, style.back_bgr), (1, 2, style.ivory_bgr)):
            quad = np.array([img[lo][i], img[lo][j], img[hi][j], img[hi][i]])
            cv2.fillConvexPoly(
                canvas, _fixed(quad), _shade(colour, normal, light), cv2.LINE_AA, SHIFT
            )

    # Whichever cap faces the camera is drawn: the art, or the plain back (a face-down tile,
    # or a standing one seen from behind).
    face_point = world[2].mean(axis=0)
    view = camera.position - face_point
    facing = float(np.dot(pose.w, view) / np.linalg.norm(view))
    face_up = facing > 0
    cap_normal = pose.w if face_up else -pose.w
    cap = img[2] if face_up else img[0]
    corners = camera.project(pose.to_world(face_corners_local(style, not face_up)))
    if face_up:
        _draw_face(canvas, gloss_mask, cap, corners, face, style, cap_normal, light)
    else:
        colour = _shade(style.back_bgr, cap_normal, light)
        cv2.fillConvexPoly(canvas, _fixed(cap), colour, cv2.LINE_AA, SHIFT)
        # Backs are polished too: they take the glare pass like faces (ids stay as drawn).
        cv2.fillConvexPoly(gloss_mask, _fixed(cap), int(255 * style.gloss), cv2.LINE_AA, SHIFT)
    # The rounded edge between cap and walls catches the light: a thin bright rim.
    base = style.ivory_bgr if face_up else style.back_bgr
    rim = np.clip(np.asarray(_shade(base, cap_normal, light)) * 1.08 + 12, 0, 255)
    width = 2 if np.ptp(cap[:, 0]) > 90 else 1
    cv2.polylines(canvas, [_fixed(cap)], True, rim.tolist(), width, cv2.LINE_AA, SHIFT)
    return Drawn(hull=hull, corners=corners, facing=facing)


def _draw_face(
    canvas: np.ndarray,
    gloss_mask: np.ndarray,
    cap: np.ndarray,
    corners: np.ndarray,
    face: np.ndarray,
    style: TileStyle,
    normal: np.ndarray,
    light: Light,
) -> None:
    """Warp the art into the cap's bounding ROI only, and blend it through the rounded cap."""
    h_img, w_img = canvas.shape[:2]
    x0, y0 = np.floor(cap.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(cap.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w_img), min(y1, h_img)
    if x1 <= x0 or y1 <= y0:
        return
    roi_w, roi_h = x1 - x0, y1 - y0
    # Shrink the art near its drawn size first: warping a big image down aliases.
    span = max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[3] - corners[0]))
    scale = min(1.0, 2.0 * span / max(face.shape[:2]))
    if scale < 1.0:
        face = cv2.resize(face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    dst = (corners - (x0, y0)).astype(np.float32)
    homography = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(
        face, homography, (roi_w, roi_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    mask = np.zeros((roi_h, roi_w), np.uint8)
    cv2.fillConvexPoly(mask, _fixed(cap - (x0, y0)), 255, cv2.LINE_AA, SHIFT)
    k = light.ambient + light.diffuse * max(0.0, float(np.dot(normal, light.direction)))
    alpha = mask.astype(np.float32)[..., None] * (k / 255.0)
    roi = canvas[y0:y1, x0:x1]
    keep = 1.0 - mask.astype(np.float32)[..., None] / 255.0
    roi[:] = np.clip(roi * keep + warped * alpha, 0, 255).astype(np.uint8)
    # Glossy faces catch the specular pass later; record where they are.
    np.maximum(
        gloss_mask[y0:y1, x0:x1],
        (mask * style.gloss).astype(np.uint8),
        out=gloss_mask[y0:y1, x0:x1],
    )
