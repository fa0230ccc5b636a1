"""Procedural suit and honour faces with `flower_art` flowers: a source for cutting flower
crops from photos (`training.detected_crops --flowers`), never picked by default.

The procedural source draws its own flowers; the flower reader and the classifier learn the
other styles (picture cards, emblems with the name spelled out, season trees, the character
alone) only as clean faces from `flower_art`. Laid out on a table by the scene
engine, those faces come back cut along the detector's corners, as the pipeline reads them.
The source is not in `datasets.faces.SOURCES`, so `mjlens synth` uses it only when asked.
"""

from __future__ import annotations

import numpy as np

from datasets.faces.base import FACE_HEIGHT, FACE_WIDTH, check_code
from datasets.faces.procedural import ProceduralSource
from scoring.tiles import FLOWERS

NAME = "drawnflowers"


class DrawnFlowersSource(ProceduralSource):
    name = NAME
    license = ProceduralSource.license  # flower_art is ours too, with the same fonts

    def face(self, code: str, rng: np.random.Generator) -> np.ndarray:
        check_code(self, code)
        if code in FLOWERS:
            # Imported here: only the flowers are drawn by flower_art.
            from datasets.faces.flower_art import flower_face

            # A scene asks every code with the same seed. One seed for all eight would draw
            # them alike (the same emblem on 1h and 5h, told apart by nothing), so each
            # flower's drawing also takes its own code.
            own = np.random.default_rng([int(rng.integers(2**31)), FLOWERS.index(code)])
            return flower_face(code, own, (FACE_WIDTH, FACE_HEIGHT))
        return super().face(code, rng)
