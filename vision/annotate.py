"""Draw what was read onto the photo: each tile's outline and code, each meld's group."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition import Recognition
from vision.roles import Role

Colour = tuple[int, int, int]
_ROLE_COLOURS: dict[Role, Colour] = {  # BGR
    Role.CONCEALED: (60, 180, 60),
    Role.WINNING: (0, 200, 255),
    Role.MELD: (255, 140, 0),
    Role.CONCEALED_KONG: (200, 0, 200),
    Role.FLOWER: (180, 105, 255),
    Role.STRAY: (128, 128, 128),
}


def annotate(
    image: npt.NDArray[np.uint8], result: Recognition, scale: float
) -> npt.NDArray[np.uint8]:
    """A copy of the working-size `image` with tiles, codes and meld groups drawn on it.

    `scale` is original pixels per image pixel (`Photo.scale`); tile coordinates are original.
    """
    out = image.copy()
    thick = max(1, round(max(out.shape[:2]) / 700))
    tiles = result.tiles
    roles = {i: g.role for g in result.layout.groups for i in g.tiles}
    for group in result.layout.melds:
        quad = tiles.corners[list(group.tiles)].reshape(-1, 2) / scale
        hull = cv2.convexHull(quad.astype(np.int32))
        cv2.polylines(out, [hull], True, _ROLE_COLOURS[group.role], thick * 3)
    for i in range(len(tiles)):
        colour = _ROLE_COLOURS.get(roles.get(i, Role.STRAY), (128, 128, 128))
        quad = (tiles.corners[i] / scale).astype(np.int32)
        cv2.polylines(out, [quad], True, colour, thick)
        code = result.decoded.codes[i]
        changed = any(c.tile == i for c in result.decoded.changes)
        _label(out, f"{code}*" if changed else code, quad, colour)
    return out


def _label(
    out: npt.NDArray[np.uint8], text: str, quad: npt.NDArray[np.int32], colour: Colour
) -> None:
    """The code in the middle of the tile, on a dark box so it reads on any face."""
    size = float(np.linalg.norm(quad[1] - quad[0]))
    scale = max(0.4, size / 70)
    thick = max(1, round(scale * 1.5))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    cx, cy = quad.mean(axis=0).astype(int)
    x, y = int(cx - w / 2), int(cy + h / 2)
    cv2.rectangle(out, (x - 2, y - h - 3), (x + w + 2, y + 3), (0, 0, 0), -1)
    cv2.putText(out, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)
