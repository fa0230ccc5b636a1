"""What every face source is: a name, a licence, the codes it draws, and `face(code, rng)`.

Faces are upright RGB uint8 arrays of the printed face only (no tile body), portrait about
3:4. Sources whose third-party art is absent raise `ArtMissing` with what to run.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
from PIL import Image

FACE_WIDTH = 120  # the size every source returns, so mixed sources look alike downstream
FACE_HEIGHT = 160


class ArtMissing(RuntimeError):
    """The third-party art or fonts of a source are not on disk (run scripts/fetch_art.sh)."""


class FaceSource(Protocol):
    name: str
    license: str
    codes: frozenset[str]

    def face(self, code: str, rng: np.random.Generator) -> np.ndarray: ...


def check_code(source: FaceSource, code: str) -> None:
    if code not in source.codes:
        raise KeyError(f"face source {source.name!r} has no face {code!r}")


def place_on_face(
    art: Image.Image,
    background: tuple[int, int, int],
    margin: float = 0.08,
    size: tuple[int, int] = (FACE_WIDTH, FACE_HEIGHT),
) -> np.ndarray:
    """Centre RGBA art, scaled to fit inside the margins, on a plain face of `size`."""
    width, height = size
    face = Image.new("RGBA", size, (*background, 255))
    box_w = int(width * (1 - 2 * margin))
    box_h = int(height * (1 - 2 * margin))
    art = art.convert("RGBA")
    scale = min(box_w / art.width, box_h / art.height)
    fitted = art.resize(
        (max(1, round(art.width * scale)), max(1, round(art.height * scale))),
        Image.Resampling.LANCZOS,
    )
    face.alpha_composite(fitted, ((width - fitted.width) // 2, (height - fitted.height) // 2))
    return np.asarray(face.convert("RGB"), dtype=np.uint8).copy()


def ink_bbox(image: Image.Image, alpha_threshold: int = 8) -> tuple[int, int, int, int] | None:
    """Bounding box of the visible pixels of an RGBA image, or None if it is empty."""
    alpha = np.asarray(image.convert("RGBA"))[:, :, 3]
    ys, xs = np.nonzero(alpha > alpha_threshold)
    if len(xs) == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1
