"""A face source backed by fixed images: each code has one or more drawings (variants)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from PIL import Image

from datasets.faces.base import FACE_HEIGHT, FACE_WIDTH, check_code


class RasterSource:
    """Faces loaded from PNG files on first use; `face` picks one variant with the rng."""

    def __init__(self, name: str, license: str, files: Mapping[str, Sequence[Path]]) -> None:
        self.name = name
        self.license = license
        self.codes = frozenset(code for code, paths in files.items() if paths)
        self._files = {code: tuple(paths) for code, paths in files.items() if paths}
        self._cache: dict[Path, np.ndarray] = {}

    def face(self, code: str, rng: np.random.Generator) -> np.ndarray:
        path = self._variant(code, rng)
        if path not in self._cache:
            self._cache[path] = self._load(path)
        return self._cache[path].copy()

    def design(self, code: str, rng: np.random.Generator) -> str:
        """The name of the drawing `face` picks with the same rng: its folder (a theme, a
        variant), which one set of faces shares."""
        return self._variant(code, rng).parent.name

    def _variant(self, code: str, rng: np.random.Generator) -> Path:
        check_code(self, code)
        paths = self._files[code]
        return paths[int(rng.integers(len(paths)))]

    def _load(self, path: Path) -> np.ndarray:
        """One variant's image as RGB uint8 at the common face size."""
        return load_face(path)

    def paths(self, code: str) -> tuple[Path, ...]:
        """The image files behind a code (repeated where a variant is weighted up)."""
        return self._files[code]


def load_face(path: Path) -> np.ndarray:
    """A cached face PNG as RGB uint8 at the common face size."""
    image = Image.open(path).convert("RGB")
    if image.size != (FACE_WIDTH, FACE_HEIGHT):
        image = image.resize((FACE_WIDTH, FACE_HEIGHT), Image.Resampling.LANCZOS)
    return np.asarray(image, dtype=np.uint8).copy()
