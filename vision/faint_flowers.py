"""The win's flowers the detector found only faintly.

A declared win's flowers lie beside the hand, and some sets print them pale (a light wash of
colour, a thin numeral). The detector finds such a face under its threshold, the hand reads
as legal without it, and a flower is lost from the reading with no doubt raised: no hand
needs its flowers. The detector's passes keep their fainter peaks
(`vision.detect.Detector.detect_with_faint`); each one that lies on no tile is read where
it could reach DOUBT once read (`bound`), and those read mostly as a flower (`FLOWER_MASS`)
are judged by a logistic model of whether the face is one of the win's flowers: its
detector confidence, flower mass, top probability and tileness, how far it lies from the
win's nearest tile and from its nearest flower, and whether the win shows flowers at all
(`FEATURES`). The model is fitted on the faint detections of rendered wins of the held-out
designs, each read as a user would (`python benchmarks/faint_flowers.py fit`; seeds and
figures in docs/recognize.md).

A face likelier a flower than not (`TAKE`) is taken among the flowers, where the reading with
it keeps the same hand and only adds flowers; a face at least `DOUBT` likely is left out.
Either way the reading says so in a review check: whether the tile is there is a guess the
hand cannot vouch for.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from scoring.hand import Hand, Waiting
from vision.notes import Note, NoteCode
from vision.roles import Role
from vision.search import SearchResult
from vision.types import FLOWER_SLICE, Tiles, concatenate
from vision.unseen import FaintReader, apart

Array = npt.NDArray[np.float64]

FLOWER_MASS = 0.3  # faint faces read at least this much as a flower are judged
FAR = 4.0  # face lengths: distances are counted no further (beyond, all alike far)
TILENESS_CAP = 10.0  # the tileness log-odds, clipped
FEATURES = (
    "log_detected",  # the detector's confidence
    "flower_mass",  # the classifier's flowers together
    "tileness",  # the tileness network's log-odds, clipped, over 5
    "win_gap",  # face lengths to the win's nearest tile
    "flower_gap",  # ...to its nearest flower (FAR where it shows none)
    "shows_flowers",  # 1 where the win shows flowers
    "log_top",  # the classifier's top probability
)
# The model over standardized FEATURES, fitted by `python benchmarks/faint_flowers.py fit`.
MEAN = (-1.8542, 0.643, -1.0753, 1.9289, 3.4807, 0.5964, -1.0304)
SCALE = (0.3086, 0.217, 0.5966, 1.2607, 1.0116, 0.4906, 0.4262)
WEIGHTS = (1.358, 0.3164, 1.1678, -0.2027, -0.7577, -0.7582, 0.2579)
BIAS = -6.9536
# The inputs the classifier's reading gives, and their ranges for a face judged.
READ = {"flower_mass": (FLOWER_MASS, 1.0), "log_top": (float(np.log(1 / 43)), 0.0)}
TAKE = 0.5  # taken among the flowers: likelier one of them than not
DOUBT = 0.1  # left out, but flagged: one chance in ten that the win lost a flower
TAKEN = "a pale tile the detector found only faintly was taken as one of the win's flowers"
LEFT_OUT = "a tile the detector found only faintly beside the win may be one of its flowers"


def features(tiles: Tiles, win: list[int], flowers: list[int], faint: Tiles) -> Array:
    """(n, len(FEATURES)) the model's inputs for each of `faint`, against the reading's
    `tiles`, its win's tiles (`win`) and flowers (`flowers`), indices into `tiles`."""
    boxes = tiles.xyxy
    face = float(np.median((boxes[:, 2:] - boxes[:, :2]).max(axis=1))) if len(boxes) else 1.0
    face = max(face, 1.0)
    centres = faint.face_centres.astype(np.float64)

    def gap(to: list[int]) -> Array:
        if not to:
            return np.full(len(faint), FAR)
        own = tiles.face_centres[to].astype(np.float64)
        nearest = np.linalg.norm(centres[:, None] - own[None], axis=2).min(axis=1)
        return np.asarray(np.minimum(nearest / face, FAR), np.float64)

    probs = faint.probs.astype(np.float64)
    # Tiles not judged by the tileness network (NaN, or none) count as neither way.
    tileness = np.zeros(len(faint)) if faint.tileness is None else faint.tileness
    tileness = np.nan_to_num(np.asarray(tileness, np.float64), nan=0.0)
    confidence = np.clip(faint.confidence.astype(np.float64), 1e-4, 1.0)
    return np.stack(
        [
            np.log(confidence),
            probs[:, FLOWER_SLICE].sum(axis=1),
            np.clip(tileness, -TILENESS_CAP, TILENESS_CAP) / 5,
            gap(win),
            gap(flowers),
            np.full(len(faint), float(bool(flowers))),
            np.log(np.maximum(probs.max(axis=1), 1e-4)),
        ],
        axis=1,
    )


def p_flower(x: Array) -> Array:
    """P(one of the win's flowers) per row of `features`."""
    z = (x - np.asarray(MEAN)) / np.asarray(SCALE)
    logit = z @ np.asarray(WEIGHTS) + BIAS
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(logit, -40.0, 40.0))), np.float64)


def judged(faint: Tiles) -> npt.NDArray[np.bool_]:
    """Which faint faces are judged: face up, read at least FLOWER_MASS as a flower."""
    mass = faint.probs[:, FLOWER_SLICE].sum(axis=1)
    return np.asarray((mass >= FLOWER_MASS) & ~faint.face_down.astype(bool), bool)


def bound(x: Array) -> Array:
    """Per row of `features` of faces not yet read: the most `p_flower` can be once they
    are, whatever the classifier says (each input the reading gives at its likeliest end)."""
    out = x.copy()
    for name, (low, high) in READ.items():
        column = FEATURES.index(name)
        out[:, column] = high if WEIGHTS[column] > 0 else low
    return p_flower(out)


def with_faint_flowers(
    searched: SearchResult, faint: FaintReader, read: Callable[[Tiles], SearchResult]
) -> SearchResult:
    """`searched`, with the faint faces the model finds likelier the win's flowers than not
    taken among its flowers where `read` of the tiles with them keeps the hand, and a
    review check where any is at least DOUBT likely. Only the faint faces that could reach
    DOUBT once read are read (`faint`, `bound`)."""
    decoded, found = searched.decoded, searched.found
    if decoded.hand is None:
        return searched
    win = [t for g in found.groups if g.role != Role.STRAY for t in g.tiles]
    flowers = list(found.flowers)

    def possible(unread: Tiles) -> npt.NDArray[np.bool_]:
        if not len(unread):
            return np.zeros(0, bool)
        # On no tile of the reading (one may be taken as the 14th), face up, able to reach
        # DOUBT once read.
        x = features(searched.tiles, win, flowers, unread)
        able = bound(x) >= DOUBT
        return np.asarray(apart(unread, searched.tiles) & ~unread.face_down & able, bool)

    candidates = faint(possible)
    candidates = candidates[np.flatnonzero(judged(candidates))]
    if not len(candidates):
        return searched
    p = p_flower(features(searched.tiles, win, flowers, candidates))
    take = np.flatnonzero(p >= TAKE)
    doubted = np.flatnonzero((p >= DOUBT) & (p < TAKE))
    if len(take):
        again = read(concatenate(searched.tiles, candidates[take]))
        if _more_flowers_alone(searched, again, len(take)):
            boxes = candidates.xyxy[take]
            added = np.flatnonzero(
                (again.tiles.xyxy[:, None] == boxes[None]).all(axis=2).any(axis=1)
            )
            note = Note(NoteCode.FAINT_FLOWER_TAKEN, TAKEN, tuple(int(t) for t in added))
            searched = replace(again, found=again.found.noted(note))
            take = take[:0]
    if len(take) or len(doubted):
        note = Note(NoteCode.FAINT_FLOWER_LEFT_OUT, LEFT_OUT)
        searched = replace(searched, found=searched.found.noted(note))
    return searched


def _more_flowers_alone(before: SearchResult, after: SearchResult, added: int) -> bool:
    """Whether `after` reads `before`'s hand with `added` more flowers and nothing else
    changed."""
    old, new = before.decoded.hand, after.decoded.hand
    if old is None or new is None or after.decoded.waiting != before.decoded.waiting:
        return False
    return len(new.flowers) == len(old.flowers) + added and _but_flowers(new) == _but_flowers(old)


def _but_flowers(hand: Hand | Waiting) -> dict[str, Any]:
    """The hand's JSON without its flowers, melds in a fixed order."""
    out = {k: v for k, v in hand.to_json().items() if k != "flowers"}
    out["melds"] = sorted(json.dumps(m, sort_keys=True) for m in out["melds"])
    return out
