"""A pinhole phone camera above the table: world millimetres in, image pixels out.

World frame: the table is z = 0, z points up, the photographer sits towards -y. The camera is
aimed at the layout, tilted 0-60 degrees from straight down, and framed so the layout fills a
chosen share of the picture, as people do when they photograph a declared win.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np


@dataclass(frozen=True)
class Camera:
    """OpenCV convention: camera x right, y down, z forward; `rotation` maps world to camera."""

    rotation: np.ndarray  # (3, 3)
    position: np.ndarray  # (3,) world mm
    focal: float  # px
    center: tuple[float, float]  # principal point, px
    size: tuple[int, int]  # image (width, height)

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        """World (n, 3) -> camera-frame (n, 3)."""
        return (points - self.position) @ self.rotation.T

    def project(self, points: np.ndarray) -> np.ndarray:
        """World (n, 3) -> image (n, 2) float pixels."""
        cam = self.to_camera(points)
        z = np.maximum(cam[:, 2:3], 1e-6)
        return cam[:, :2] / z * self.focal + np.asarray(self.center)

    def depth(self, points: np.ndarray) -> np.ndarray:
        """Distance along the optical axis of each world point (n,)."""
        return self.to_camera(points)[:, 2]

    def faces_camera(self, point: np.ndarray, normal: np.ndarray) -> bool:
        """True when a surface at `point` with outward `normal` is seen from the front."""
        return float(np.dot(normal, self.position - point)) > 0.0


def look_at(
    target: np.ndarray, tilt_deg: float, azimuth_deg: float, roll_deg: float, distance: float
) -> tuple[np.ndarray, np.ndarray]:
    """Rotation and position of a camera `distance` mm from `target`.

    tilt 0 is straight down; azimuth turns the photographer around the table (0 = seated at -y);
    roll turns the picture about the optical axis.
    """
    tilt, az, roll = (math.radians(a) for a in (tilt_deg, azimuth_deg, roll_deg))
    # Offset from target towards the photographer before the azimuth turn.
    offset = np.array([0.0, -math.sin(tilt), math.cos(tilt)])
    turn = np.array(
        [[math.cos(az), -math.sin(az), 0.0], [math.sin(az), math.cos(az), 0.0], [0.0, 0.0, 1.0]]
    )
    position = target + distance * (turn @ offset)
    forward = target - position
    forward /= np.linalg.norm(forward)
    up_hint = turn @ np.array([0.0, 1.0, 0.0])  # far side of the table is the top of the picture
    right = np.cross(forward, up_hint)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    c, s = math.cos(roll), math.sin(roll)
    right, down = c * right + s * down, -s * right + c * down
    return np.stack([right, down, forward]), position


NEAR_MM = 80.0  # no phone focuses closer: every framed point lies at least this far ahead
FAR_MM = 20_000.0


def _in_front(cam: Camera, points: np.ndarray, distance: float) -> bool:
    return bool(cam.depth(points).min() >= NEAR_MM) and distance <= FAR_MM


def _distance_filling(
    aimed: Callable[[float], Camera],
    filled: Callable[[Camera], float],
    points: np.ndarray,
    fill: float,
) -> float:
    """The distance at which the points fill `fill` of the picture, by bisection.

    The fixed-point steps assume the extent scales as 1/distance, which fails close up, where
    the near tiles' projection blows up: a steep close-up from the side (tilt 46, azimuth
    105, fill 1.94) swung between 120 mm and 7e9 mm, and the table's warp at that distance
    never returned. Closer than NEAR_MM to the nearest point is not a photo; nearer is
    bigger, so the extent falls as the distance grows and bisection finds it.
    """
    near = 120.0
    while not _in_front(aimed(near), points, near) and near < FAR_MM:
        near *= 1.25
    far = FAR_MM
    if filled(aimed(near)) <= fill:
        return near
    for _ in range(40):
        mid = math.sqrt(near * far)
        near, far = (mid, far) if filled(aimed(mid)) > fill else (near, mid)
    return far


def frame_layout(
    points: np.ndarray,
    size: tuple[int, int],
    rng: np.random.Generator,
    tilt_deg: float,
    azimuth_deg: float,
    roll_deg: float,
    fill: float,
    hfov_deg: float = 65.0,
    spill: float = 0.0,
) -> Camera:
    """A camera that shows the world `points` filling `fill` of the picture's tighter side.

    `spill` (0..1) lets the layout slide partly out of the frame, as hurried photos do.
    """
    width, height = size
    focal = (max(width, height) / 2) / math.tan(math.radians(hfov_deg) / 2)
    target = points.mean(axis=0)

    def aimed(distance: float) -> Camera:
        rotation, position = look_at(target, tilt_deg, azimuth_deg, roll_deg, distance)
        return Camera(rotation, position, focal, (width / 2, height / 2), size)

    def filled(cam: Camera) -> float:
        span = np.ptp(cam.project(points), axis=0)
        return float(max(span[0] / width, span[1] / height))

    distance = 600.0
    for _ in range(4):  # projected extent scales ~1/distance: a few fixed-point steps converge
        distance = max(distance * filled(aimed(distance)) / fill, 120.0)
    if not _in_front(aimed(distance), points, distance):
        distance = _distance_filling(aimed, filled, points, fill)
    cam = aimed(distance)
    xy = cam.project(points)
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    # Centre the layout, then slide it by a random share of the free margin (plus spill).
    center = np.array([width / 2, height / 2]) - (lo + hi) / 2
    margin = np.maximum(np.array([width, height]) - (hi - lo), 0) / 2
    # Most photos centre the hand roughly; a few leave it off-centre or cut by the edge.
    slide = np.clip(rng.normal(0, 0.25, 2), -1, 1) * margin + rng.uniform(-1, 1, 2) * spill * (
        hi - lo
    )
    principal = center + slide + np.array([width / 2, height / 2])
    return replace(cam, center=(float(principal[0]), float(principal[1])))
