"""How likely a reading is right: a logistic model over what layout and decoding computed.

The review flag is this probability under a threshold. The model (`vision/weights/review.json`,
[card](weights/review.md)) is fitted on renders of held-out designs and measured on renders
made afresh after fitting (`benchmarks/review.py`). Its inputs are the reading's own numbers:
how sure the decoder is of the hand and of its runner-up, how far the rules overruled the
tiles, the least sure hand tile, the layout's doubts and the review checks that fired.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.decode import Decoded
from vision.layout import Layout
from vision.notes import Note, NoteCode
from vision.registry import optional
from vision.roles import HAND_ROLES
from vision.types import Tiles

Array = npt.NDArray[np.float64]

_FLOOR = 1e-4  # probabilities are taken in logs no lower than this
_SPREAD = 3.0  # standardized inputs are held within this many standard deviations
# Review checks that say the reading may be structurally wrong (a tile missing, a meld
# misplaced), counted as one input; the checks on the tiles' probabilities enter as numbers.
_STRUCTURAL = frozenset(
    {
        NoteCode.CONCEALED_SET_LIKE_MELD,
        NoteCode.DOUBTFUL_TILE_LEFT_OUT,
        NoteCode.SEARCH_CUT_SHORT,
        NoteCode.TOO_MANY_COPIES,
        NoteCode.SCORER_REJECTS,
    }
)
_FLOWERS_LEFT = frozenset({NoteCode.FLOWERS_LEFT_OUT, NoteCode.MAYBE_FLOWER_LEFT_OUT})
# Readings that rest on a guess about the count: a tile set apart like a winning tile with
# only 13 in the hand, tiles kept out of a hand of 13, a tile left out so that 13 wait.
_COUNT_GUESSES = frozenset(
    {NoteCode.APART_IN_THIRTEEN, NoteCode.KEPT_OUT_OF_THIRTEEN, NoteCode.READ_AS_THIRTEEN}
)
# The review checks that may flag a reading whatever its probability (a model's
# `hard_checks` names those it keeps): each says the reading rests on a guess about where a
# tile lies or whether it is there, which the tiles' probabilities cannot see. The checks on
# the probabilities themselves (another reading, an overruled tile, an unfamiliar set, which
# flower) are what the model replaces.
GUESS_CHECKS = (
    frozenset(
        {
            NoteCode(code)
            for code in (
                "reading_sense_unsure",
                "tile_fits_no_meld",
                "winning_tile_not_apart",
                "winning_tile_unsure",
                "apart_in_thirteen",
                "kept_out_of_thirteen",
                "crowded_out",
                "kong_tile_apart",
                "row_end_flowers",
                "flower_taken_as_tile",
                "askew_tile_taken",
                "two_crosswise_tiles",
                "lone_crosswise_taken",
                "kong_faces_blank",
                "false_claim",
                "faint_tile_left_out",
                "read_as_thirteen",
                "faint_tile_taken",
                "faint_flower_taken",
                "faint_flower_left_out",
            )
        }
    )
    | _STRUCTURAL
    | _FLOWERS_LEFT
    | {NoteCode.NO_LEGAL_HAND}
)

# A reading with a set is judged by the model for such readings (`ReviewModel.with_set`) only
# where the set was shown at least this share of the 42 faces: that model was fitted on
# enrollments' sets, shown every face. A set taught a few faces (the labelled tiles of two
# wins: 10-19) reads most tiles as the classifier alone does and is judged as no set: by the
# model for readings with a set, 95.9 % of such readings left unflagged were right (seed
# 8996, 47 % flagged).
WHOLE_SET = 0.8


def judged_with_set(coverage: float) -> bool:
    """Whether a reading with a set shown `coverage` of the faces is judged as one with a
    set (`WHOLE_SET`)."""
    return coverage >= WHOLE_SET


# The inputs, in the order of the model's weights.
FEATURES = (
    "log_confidence",  # the hand's share of the legal readings found
    "log_hand_confidence",  # the same without which flower each flower is
    "log_margin",  # the hand's share over its runner-up's
    "log_plausibility",  # the best legal reading against the tile-by-tile one
    "log_least_sure_tile",  # the least sure face-up hand tile's top probability
    "unsure_hand_tiles",  # face-up hand tiles whose top probability is under 0.9
    "unsure_photo_tiles",  # face-up tiles anywhere under 0.6: a set read badly
    "changes",  # tiles the rules changed
    "least_detected",  # the least sure hand tile's detector confidence
    "layout_doubt",  # 1 when the layout made a guess
    "structural_checks",  # review checks of a misplaced or missing tile
    "flowers_left_out",  # checks of flowers beside the hand left out
    "flowers",  # flower tiles laid out: each one's name is a chance to be wrong
    "hand_at_edge",  # hand tiles touching the photo's edge: part of the hand may be cut off
    "count_guess",  # 1 when the reading rests on a guess about how many tiles the hand has
)


def reading_features(
    tiles: Tiles, found: Layout, decoded: Decoded, doubts: list[Note], notes: list[Note]
) -> Array | None:
    """The model's inputs for one reading (FEATURES), from its review checks (`doubts`) and
    its other notes; None when no hand was read, which is never right."""
    if decoded.hand is None:
        return None
    hand = [t for g in found.groups if g.role in HAND_ROLES for t in g.tiles]
    down = np.asarray(tiles.face_down, dtype=bool)
    shown = [t for t in hand if not down[t]]
    top = tiles.probs.max(axis=1).astype(np.float64) if len(tiles) else np.zeros(0)
    runner_up = decoded.alternatives[0][1] if decoded.alternatives else 0.0
    hand_confidence = decoded.confidence / max(decoded.flower_confidence, _FLOOR)
    codes = [note.code for note in doubts]
    values = [
        _log(decoded.confidence),
        _log(min(hand_confidence, 1.0)),
        _log(decoded.confidence) - _log(runner_up),
        _log(min(decoded.plausibility, 1.0)),
        _log(float(top[shown].min())) if shown else 0.0,
        float((top[shown] < 0.9).sum()),
        float((top[~down] < 0.6).sum()) if len(tiles) else 0.0,
        float(len([c for c in decoded.changes if c.tile in set(hand)])),
        float(tiles.confidence[hand].min()) if hand else 0.0,
        float(found.doubt is not None),
        float(sum(code in _STRUCTURAL for code in codes)),
        float(sum(code in _FLOWERS_LEFT for code in codes)),
        float(len(found.flowers)),
        float(
            len(set(hand) & {t for n in notes if n.code is NoteCode.TILE_AT_EDGE for t in n.tiles})
        ),
        float(any(code in _COUNT_GUESSES for code in codes)),
    ]
    return np.array(values, dtype=np.float64)


def _log(p: float) -> float:
    return math.log(max(p, _FLOOR))


@dataclass(frozen=True)
class Recalibration:
    """A probability p mapped to sigmoid(a + b logit p): the two numbers of Platt scaling,
    fitted on readings of one kind (`benchmarks/review.py recalibrate`). With b > 0 the map
    keeps the order of readings, so a threshold mapped alike flags the same readings."""

    a: float = 0.0
    b: float = 1.0

    def __post_init__(self) -> None:
        if not self.b > 0:
            raise ValueError("a recalibration must keep the order of readings (b > 0)")

    def __call__(self, p: float) -> float:
        if p <= 0.0 or p >= 1.0 or (self.a == 0.0 and self.b == 1.0):
            return p  # none read stays none; the identity is exact
        z = self.a + self.b * math.log(p / (1.0 - p))
        return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))


IDENTITY = Recalibration()


@dataclass(frozen=True)
class ReviewModel:
    """A logistic model of P(right) over standardized FEATURES, and the review threshold.

    Attributes:
        weights: one per feature, on standardized inputs.
        bias: the intercept.
        mean, scale: the fitting set's mean and standard deviation per feature.
        threshold: a reading under this probability is flagged for review.
        hard_checks: review checks that flag a reading whatever its probability.
        needs_check: a reading is flagged for its probability only where some review check
            fired (the probability then clears checks that are likely wrong).
        no_set, taught: the model's probability recalibrated for a reading with no set
            taught and for one with a set: the same inputs mean more with a set (a face the
            set was shown is read surely on every copy), so one model is under-confident
            there. `threshold` maps alike: the flag is the same, the probability honest.
        with_set: where given, a model of its own for readings with a taught set, fitted
            on those readings alone (its own weights and threshold; the same hard checks).
            With a set, the inputs do not only mean more, they weigh differently: a sure
            face of the set is rarely wrong, while a face the set has no look for is as
            doubtful as ever. It replaces `taught`.
        capped: the probability is never more than the decoder's own confidence in the
            hand (the model fitted for readings with a set weighs that confidence itself:
            held under it, 8 in 100 more of those readings were flagged at the same share of
            unflagged reads right).
    """

    weights: Array
    bias: float
    mean: Array
    scale: Array
    threshold: float
    hard_checks: frozenset[NoteCode] = frozenset()
    needs_check: bool = False
    no_set: Recalibration = IDENTITY
    taught: Recalibration = IDENTITY
    with_set: ReviewModel | None = None
    capped: bool = True

    def for_reading(self, taught: bool) -> ReviewModel:
        """The model that judges a reading with a taught set (`taught`) or without."""
        return self.with_set if taught and self.with_set is not None else self

    def recalibration(self, taught: bool) -> Recalibration:
        if self.for_reading(taught) is not self:
            return IDENTITY  # fitted on those readings: no map needed
        return self.taught if taught else self.no_set

    def threshold_for(self, taught: bool) -> float:
        """The review threshold on the probability as `p_right` gives it."""
        return self.recalibration(taught)(self.for_reading(taught).threshold)

    def flags(self, p_right: float, doubts: list[Note], taught: bool = False) -> bool:
        """Whether a reading of this probability (`p_right`, with `taught` alike), with these
        review checks fired, is flagged."""
        model = self.for_reading(taught)
        if any(n.code in model.hard_checks for n in doubts):
            return True
        below = p_right < self.threshold_for(taught)
        return below and (bool(doubts) or not model.needs_check)

    def p_right(self, features: Array | None, taught: bool = False) -> float:
        """The probability that the reading is right (read with a set where `taught`): the
        model's for that kind of reading, recalibrated where it was not fitted on it."""
        return self.recalibration(taught)(self.for_reading(taught).model_p(features))

    def model_p(self, features: Array | None) -> float:
        """The logistic model's probability, before recalibration; 0 where no hand was read.

        Where `capped`, never more than the decoder's own confidence in the hand: where it
        finds another legal reading about as likely, the model does not overrule it. Inputs are held
        within 3 standard deviations of the fitting set's, so that a reading unlike any
        fitted on (simulated tiles, read surely) is not extrapolated to."""
        if features is None:
            return 0.0
        z = np.clip((features - self.mean) / self.scale, -_SPREAD, _SPREAD)
        logit = float(z @ self.weights + self.bias)
        p = 1.0 / (1.0 + math.exp(-max(min(logit, 40.0), -40.0)))
        if not self.capped:
            return p
        return min(p, math.exp(float(features[FEATURES.index("log_confidence")])))

    def to_json(self, fitted_on: dict[str, Any]) -> dict[str, Any]:
        return {
            "features": list(FEATURES),
            "weights": [round(float(w), 6) for w in self.weights],
            "bias": round(self.bias, 6),
            "mean": [round(float(m), 6) for m in self.mean],
            "scale": [round(float(s), 6) for s in self.scale],
            "threshold": round(self.threshold, 6),
            "hard_checks": sorted(code.value for code in self.hard_checks),
            "needs_check": self.needs_check,
            "capped": self.capped,
            "recalibration": {
                "no_set": [round(self.no_set.a, 6), round(self.no_set.b, 6)],
                "taught": [round(self.taught.a, 6), round(self.taught.b, 6)],
            },
            "fitted_on": fitted_on,
            **({} if self.with_set is None else {"with_set": self.with_set.to_json({})}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReviewModel:
        if list(data["features"]) != list(FEATURES):
            raise ValueError("the review model was fitted on other features than these")
        recalibrated = data.get("recalibration", {})
        with_set = data.get("with_set")
        return cls(
            weights=np.asarray(data["weights"], np.float64),
            bias=float(data["bias"]),
            mean=np.asarray(data["mean"], np.float64),
            scale=np.asarray(data["scale"], np.float64),
            threshold=float(data["threshold"]),
            hard_checks=frozenset(NoteCode(code) for code in data.get("hard_checks", ())),
            needs_check=bool(data.get("needs_check", False)),
            no_set=Recalibration(*recalibrated.get("no_set", (0.0, 1.0))),
            taught=Recalibration(*recalibrated.get("taught", (0.0, 1.0))),
            with_set=None if with_set is None else cls.from_json(with_set),
            capped=bool(data.get("capped", True)),
        )


@cache
def shipped_review_model() -> ReviewModel | None:
    """The shipped model (`vision/weights/review.json`), or None where it is not there."""
    path = optional("review")
    return load_review_model(path) if path is not None else None


def load_review_model(path: Path) -> ReviewModel:
    return ReviewModel.from_json(json.loads(path.read_text(encoding="utf-8")))


def fit_logistic(
    features: Array,
    right: npt.NDArray[np.bool_],
    l2: float = 1.0,
    threshold: float = 0.5,
    capped: bool = True,
) -> ReviewModel:
    """Logistic regression by Newton's method on the L2-penalised likelihood (the intercept
    not penalised), on inputs standardized by the fitting set's own mean and spread."""
    mean = features.mean(axis=0)
    scale = features.std(axis=0)
    scale = np.where(scale > 1e-9, scale, 1.0)
    x = np.hstack(
        [np.clip((features - mean) / scale, -_SPREAD, _SPREAD), np.ones((len(features), 1))]
    )
    y = right.astype(np.float64)
    penalty = np.full(x.shape[1], l2)
    penalty[-1] = 0.0
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -40, 40)))
        gradient = x.T @ (p - y) + penalty * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return ReviewModel(w[:-1].copy(), float(w[-1]), mean, scale, threshold, capped=capped)
