"""Face art for one physical set: one source, one style, every code drawn the same way.

A real table holds one set, so all tiles in a scene share a source and a style seed: each code
is asked of the source with a generator seeded the same way, then cached. The art's own paper
colour is mapped onto the set's ivory so the face blends into the body.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from scoring.tiles import BACK, FACES


def _stand_in(code: str) -> np.ndarray:
    """A code's text on a white card: used only when datasets.faces is missing."""
    card = np.full((160, 120, 3), 250, np.uint8)
    scale = 1.6 if len(code) == 1 else 1.2
    (tw, th), _ = cv2.getTextSize(code, cv2.FONT_HERSHEY_SIMPLEX, scale, 3)
    cv2.putText(
        card,
        code,
        ((120 - tw) // 2, (160 + th) // 2),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        (30, 30, 180),
        3,
        cv2.LINE_AA,
    )
    return card


def usable_sources(requested: Sequence[str]) -> list[str]:
    """Those of `requested` whose art is on disk; ["stand-in"] while datasets.faces is absent."""
    try:
        from datasets.faces import get_source
    except ImportError:
        return ["stand-in"]
    usable = []
    for name in requested:
        try:
            get_source(name)
        except (ImportError, KeyError, RuntimeError):  # unknown, unbuilt, or art missing
            continue
        usable.append(name)
    return usable


def source_codes(name: str) -> frozenset[str]:
    if name == "stand-in":
        return frozenset(FACES)
    from datasets.faces import get_source

    return frozenset(get_source(name).codes)


class FaceSet:
    """The faces of one set in one scene: BGR arrays, paper colour matched to `ivory_bgr`."""

    def __init__(self, source: str, style_seed: int, ivory_bgr: tuple[int, int, int]) -> None:
        self.source = source
        self.style_seed = style_seed
        self.ivory = np.asarray(ivory_bgr, np.float32)
        self._cache: dict[str, np.ndarray] = {}
        self._src = None
        if source != "stand-in":
            from datasets.faces import get_source

            self._src = get_source(source)
        self.codes = source_codes(source) - {BACK}
        self.design = self._design()
        # Sets printed on dark stock (FluffyStuff's "Black") keep their dark paper as the body.
        probe_code = "5p" if "5p" in self.codes else min(self.codes, default=None)
        probe = self._raw(probe_code) if probe_code is not None else None
        paper = _paper(probe) if probe is not None else None
        self.dark_paper: tuple[int, int, int] | None = (
            (int(paper[0]), int(paper[1]), int(paper[2]))
            if paper is not None and paper.max() < 120
            else None
        )
        if self.dark_paper is not None:
            self.ivory = np.asarray(self.dark_paper, np.float32)
        # How much the face darkens where it rounds over into the sides, for this set.
        self.bevel = float(np.random.default_rng(style_seed).uniform(0.0, 0.18))
        self._bevels: dict[tuple[int, int], np.ndarray] = {}

    def _design(self) -> str:
        """The source and, for fixed art, the theme or variant this set's faces come from
        ("kde/classic"): the held-out figures differ by theme more than by anything else."""
        design = getattr(self._src, "design", None)
        if design is None or not self.codes:
            return self.source
        themes = {design(code, np.random.default_rng(self.style_seed)) for code in self.codes}
        # One theme for every code when each code has one drawing per theme (KDE, GNOME,
        # FluffyStuff); camerash's photos of many sets name none, and a mix names none.
        theme = themes.pop() if len(themes) == 1 else self.source
        return self.source if theme == self.source else f"{self.source}/{theme}"

    def _raw(self, code: str) -> np.ndarray:
        if self._src is None:
            return _stand_in(code)
        rgb = self._src.face(code, np.random.default_rng(self.style_seed))
        return cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2BGR)

    def face(self, code: str) -> np.ndarray:
        if code not in self._cache:
            art = self._raw(code)
            # One multiply does both: paper to ivory per channel, and the bevel's falloff.
            gain = self._bevel_mask(art.shape[:2])[..., None] * self._ivory_gain(art)
            self._cache[code] = cv2.multiply(art, gain, dtype=cv2.CV_8U, scale=1.0)
        return self._cache[code]

    def _ivory_gain(self, art: np.ndarray) -> np.ndarray:
        if self.dark_paper is not None:
            return np.ones(3, np.float32)  # the body already wears this art's paper colour
        paper = _paper(art)
        # Dark-framed art keeps its colours (just tinted); paper-backed art gets the set's ivory.
        gain = self.ivory / 255.0 if paper.min() < 120 else self.ivory / np.maximum(paper, 1.0)
        return gain.astype(np.float32)

    def _bevel_mask(self, shape: tuple[int, ...]) -> np.ndarray:
        """Darken the face's outer band: real faces round over at their edges, catch less light."""
        h, w = shape
        if (h, w) not in self._bevels:
            band = 0.06 * min(h, w)
            y, x = np.ogrid[0:h, 0:w]
            edge = np.minimum(np.minimum(x + 0.5, w - x - 0.5), np.minimum(y + 0.5, h - y - 0.5))
            fall = np.clip(1.0 - edge / band, 0.0, 1.0) ** 2
            self._bevels[(h, w)] = (1.0 - self.bevel * fall).astype(np.float32)
        return self._bevels[(h, w)]


def _paper(art: np.ndarray) -> np.ndarray:
    """The art's background colour: the median of its outer frame of pixels."""
    border = np.concatenate(
        [
            art[:3].reshape(-1, 3),
            art[-3:].reshape(-1, 3),
            art[:, :3].reshape(-1, 3),
            art[:, -3:].reshape(-1, 3),
        ]
    )
    return np.median(border, axis=0).astype(np.float32)
