"""Photo in, scored hand out: load, detect, classify, layout, decode, score, and a review flag.

`Recognizer` holds the two ONNX sessions (loaded once); `interpret` is the half after the
models, usable on its own with tiles from anywhere (tests feed it synthetic tiles).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from scoring import score as score_hand
from scoring.tiles import BACK, CLASSES, COPIES, FLOWERS, PLAYING, WINDS
from vision.decode import Decoded, decode
from vision.geometry import meld_log_likelihood
from vision.hand_rows import HAND_TILES, counted, hand_count
from vision.layout import (
    HAND_ROLES,
    WAITING_TILES,
    Layout,
    layout,
    role_of_each,
    runs_along,
)
from vision.load import Photo, load_photo
from vision.registry import model_card, require
from vision.tileset import TileSet, TileSetError
from vision.types import BACK_INDEX, FLOWER_SLICE, Tiles

# Review thresholds, set on the held-out synthetic benchmark (benchmarks/recognize.py).
REVIEW_CONFIDENCE = 0.9  # hand probability among the legal readings
REVIEW_PLAUSIBILITY = 0.02  # best legal reading vs the tile-by-tile reading
# Flower probability of a tile left out of the hand within which it may be a misread flower:
# flowers are the faces read worst, and a flower row read as suit tiles is left out as
# "apart from the hand" while the hand itself stays legal, losing the flowers silently. A
# tile surely a flower is left out on purpose (another player's flowers, a stray one).
REVIEW_FLOWER_LEFT_OUT = (0.1, 0.9)
# ...and within this many face widths of the hand's nearest tile: the hand's flowers lie
# beside it (held-out KDE: the true flowers left out lay 1.1-1.8 widths off), while the
# discards further out, read a little as flowers, flagged right hands (training-source and
# real-face wins: the 39 tiles that raised the doubt were discards, false detections or a
# wrong hand's meld tiles, 1.3-13.6 widths off, 34 of them over 2.5).
FLOWER_LEFT_OUT_REACH = 2.5
# A tile surely a flower left out alone may be another player's, but this many beside the
# hand are its flowers, left out by their row (laid askew, or a misread one among them
# taking the hand past 14: six flowers beside a real-face hand, one read as C, let the
# hand pass unflagged with none). One flagged two right hands on the sets measured...
SURE_FLOWERS_LEFT_OUT = 2
# ...but one this close lies where the hand's own flowers lie, not another player's: a
# real-face hand's one flower laid crosswise just above the concealed tiles, 1.2 face
# widths off, was left out and the hand passed unflagged without it.
# Within 2 widths no right hand of the seven sets measured was flagged; within 2.5, two.
SURE_FLOWER_LEFT_OUT_REACH = 2.0
# Detector confidence under which a tile apart from the hand is not reported. The detector
# keeps peaks down to 0.3 so that no hand tile is lost, but apart from the hand a faint peak
# is more often a prop, a shadow or the table's texture than a tile: on photos of the
# training sources (runs/tune_proc) the floor leaves out 7 false tiles for 5 true ones, on
# the real-face wins 64 for 18 (`benchmarks/strays.py`). Tiles in the hand keep the 0.3.
STRAY_MIN_CONFIDENCE = 0.4
# Centres this close, in the faces' typical short side, one of them sideways: one tile seen
# twice (`seen_twice`). 0.45 against 0.55 and 0.7: those passed a wrong training-source hand.
SEEN_TWICE_REACH = 0.45
# A photo in which this many face-up tiles, hand or not, read under this top probability
# shows a set the classifier knows badly, and there its confident readings fail too: the
# wrong hands that passed unflagged on the held-out KDE wins were of unseen designs read with
# confidence (KDE traditional's 6s as 9s at 0.99), most beside tiles read unsure. Three
# tiles under 0.6, with those figures in view (the training sources held one unflagged
# wrong hand, too few to choose by): see docs/recognize.md.
UNFAMILIAR_SET_READING = 0.6
UNFAMILIAR_SET_TILES = 3
# A lone face-down tile in the hand's rows that the classifier reads as a back, but this
# much as a white dragon, is a blank white dragon when the hand lacks exactly such tiles (one
# to three): blank white dragons in training-source hands read P at only 0.13-0.15, back
# the rest, the hand short by them; the true backs that a split concealed kong left alone
# read P at 0.00 (on real-face and held-out KDE photos seen when choosing it).
BLANK_FACE_READING = 0.05
# The two shown faces of a concealed kong, read as two different tiles each this surely,
# are no kong's (`_kongs_of_two_faces`).
SURE_SHOWN_FACE = 0.9
# A face-up tile read as a back this surely, between two face-down tiles, is face down
# (`backs_between_backs`).
SURE_BACK = 0.98
# A claimed meld whose tiles' readings make a chow or pung less likely than this is tried
# without its crosswise flags when no legal hand is read (`_false_claims`).
NO_MELD_READING = 0.01
FALSE_CLAIM = "a crosswise tile in a meld that is none was taken as upright"
# A lone tile of the hand found under STRAY_MIN_CONFIDENCE, when no legal hand is read, is
# tried left out: a faint false detection (or a discard) nearer the hand than its true lone
# tiles takes their place in the count (on real-face photos, a 9s at 0.30 and a 4s at 0.37
# kept the pair out). So is any such tile of a
# hand past 14, a meld's too (`_without_a_faint_lone_tile`).
FAINT_LONE_TILE = "a faint detection was left out of the hand: with it no legal hand was read"
TOO_MANY_COPIES = "the photo shows more than four of one tile: some are misread"
WHICH_FLOWER = "which flower a flower tile is may be wrong"
THIRTEEN_AFTER_ALL = (
    "read as 13 tiles waiting to win, a tile near them left out: with it no win was read "
    "that the tiles as read allow"
)
MELD_WITHOUT_CROSSWISE_TILE = (
    "concealed tiles lie where melds lie: a meld whose crosswise tile was not seen?"
)
_CONTEXT_KEYS = (
    "seat_wind",
    "prevalent_wind",
    "self_drawn",
    "flowers",
    "last_tile",
    "last_of_wall",
    "kong_replacement",
    "robbing_kong",
    "concealed_kongs",
)

Json = dict[str, Any]


class ContextError(ValueError):
    """A context field the recognizer cannot use; the message names the field."""


@dataclass
class Recognition:
    """Everything read from one photo; `to_json` is the contract of DESIGN.md."""

    tiles: Tiles
    layout: Layout
    decoded: Decoded
    score: Json | None
    warnings: list[str]
    review: bool
    review_reasons: list[str]
    timings_ms: dict[str, float] = field(default_factory=dict)
    models: dict[str, Json] = field(default_factory=dict)
    sha256: str = ""
    photo: Photo | None = None  # the decoded photo, for drawing; not part of the JSON
    tileset: str | None = None  # the name of the taught set the tiles were read with

    @property
    def score_review(self) -> bool:
        """A review reason the score may be wrong for, not only which flower a flower is."""
        return doubts_score(self.review_reasons)

    @property
    def waits(self) -> list[Json] | None:
        """For a hand of 13 tiles waiting to win, the score's `waits` (each tile that
        completes it, the win on it scored on a discard and self-drawn); None otherwise."""
        if not self.decoded.waiting or self.decoded.hand is None or self.score is None:
            return None
        found: list[Json] = self.score.get("waits") or []
        return found

    def to_json(self) -> Json:
        return {
            "tiles": _tiles_json(self.tiles, self.layout, self.decoded),
            "melds": self.decoded.melds,
            "hand": self.decoded.hand,
            "score": self.score,
            "waits": self.waits,
            "warnings": self.warnings,
            "review": self.review,
            "review_reasons": self.review_reasons,
            "score_review": self.score_review,
            "confidence": round(self.decoded.confidence, 4),
            "flower_confidence": round(self.decoded.flower_confidence, 4),
            "changes": [c.to_json() for c in self.decoded.changes],
            "alternatives": [
                {"hand": hand, "p": round(p, 4)} for hand, p in self.decoded.alternatives
            ],
            "timings_ms": {k: round(v, 1) for k, v in self.timings_ms.items()},
            "models": self.models,
            "sha256": self.sha256,
            "set": self.tileset,
        }


class Recognizer:
    """The detector and classifier, loaded once, and the whole photo-to-score pipeline.

    Example:
        >>> result = Recognizer().recognize(open("win.jpg", "rb").read(), {"seat_wind": "S"})
        ... # doctest: +SKIP
        >>> result.to_json()["hand"]["winning_tile"]
        '7p'
    """

    def __init__(
        self,
        detector_path: str | Path | None = None,
        classifier_path: str | Path | None = None,
        flowers: bool = True,
        flower_path: str | Path | None = None,
        index: bool = True,
        index_path: str | Path | None = None,
    ) -> None:
        """`flowers`, `flower_path`: whether the flower reader names the flowers, and which
        file; `index`, `index_path`: the same for the index reader
        (`vision.classify.Classifier`)."""
        detector_file = require("detector", detector_path)
        classifier_file = require("classifier", classifier_path)
        sideways_file = require("sideways")
        require("sideways_look")
        from vision.classify import Classifier
        from vision.detect import Detector  # type: ignore[import-not-found,unused-ignore]

        self.detector = Detector(detector_file)
        self.classifier = Classifier(
            classifier_file,
            flowers=flowers,
            flower_model=flower_path,
            index=index,
            index_model=index_path,
        )
        self.models = {
            "detector": model_card(detector_file),
            "classifier": model_card(classifier_file),
            "sideways": model_card(sideways_file),
        }
        if self.detector.refiner is not None:
            self.models["refiner"] = model_card(self.detector.refiner.model_path)
        if self.classifier.flower_reader is not None:
            self.models["flower_reader"] = model_card(self.classifier.flower_reader.model_path)
        if self.classifier.index_reader is not None:
            self.models["index_reader"] = model_card(self.classifier.index_reader.model_path)

    @property
    def classifier_digest(self) -> str:
        """What a taught set records as the classifier that embedded its looks."""
        return self.classifier.digest

    def recognize(
        self,
        data: bytes | str | Path,
        context: Mapping[str, Any] | None = None,
        ruleset: str = "mcr",
        tileset: TileSet | None = None,
    ) -> Recognition:
        """Read a photo of a declared win, with a taught `tileset` when given (embedded by
        this classifier: `vision.teaching.reembedded`). Raises PhotoError (bad photo),
        ContextError, TileSetError (a set this classifier cannot use)."""
        checked = check_context(context)
        timings: dict[str, float] = {}
        photo, tiles = self.read_tiles(data, timings, tileset)
        result = interpret(tiles, checked, ruleset, timings=timings, image_size=photo.original_size)
        result.models, result.sha256, result.photo = self.models, photo.sha256, photo
        result.tileset = tileset.name if tileset is not None else None
        return result

    def read_tiles(
        self,
        data: bytes | str | Path,
        timings: dict[str, float] | None = None,
        tileset: TileSet | None = None,
    ) -> tuple[Photo, Tiles]:
        """The models' half of `recognize`: the photo loaded, its tiles detected and named
        (with `tileset`'s looks where given). Fills `timings` (seconds per stage) when
        given. Raises PhotoError (bad photo)."""
        if tileset is not None and len(tileset) and tileset.model != self.classifier_digest:
            raise TileSetError(f"set {tileset.name!r} was embedded by another classifier")
        timings = timings if timings is not None else {}
        clock = time.perf_counter()
        photo = load_photo(data)
        clock = _lap(timings, "load", clock)
        tiles = self.detector.detect(photo)
        clock = _lap(timings, "detect", clock)
        tiles = self.classifier.classify(photo, tiles)
        if tileset is not None:
            tiles = replace(tiles, probs=tileset.read(tiles.probs, tiles.embeddings, tiles.looks))
        _lap(timings, "classify", clock)
        return photo, tiles


def interpret(
    tiles: Tiles,
    context: Mapping[str, Any] | None = None,
    ruleset: str = "mcr",
    *,
    timings: dict[str, float] | None = None,
    image_size: tuple[int, int] | None = None,
) -> Recognition:
    """Layout, decoding, scoring and the review flag for tiles already detected and classified.

    `image_size` (width, height of the original photo) lets it warn about tiles cut off at
    the photo's edge: part of the hand may be outside the picture.
    """
    timings = timings if timings is not None else {}
    checked = check_context(context)
    clock = time.perf_counter()
    twice = seen_twice(tiles)
    if twice:
        # One tile, two detections: counted once, or a pung reads as a kong.
        tiles = _once_each(tiles, twice)
    found = layout(tiles)
    faint = faint_strays(tiles, found)
    if faint.any():
        # Read again without them: a faint false tile in a hand's row misleads the melds.
        tiles = tiles[~faint]
        found = layout(tiles)
    hidden = backs_between_backs(tiles, found)
    if hidden.any():
        # Read again with them face down: a kong laid all face down, one back unflagged.
        tiles = replace(tiles, face_down=tiles.face_down | hidden)
        found = layout(tiles)
    blank = faces_taken_for_backs(tiles, found)
    if blank.any():
        # Read again with them face up: the hand lacks a tile while a lone "back" sits in it.
        tiles = replace(tiles, face_down=tiles.face_down & ~blank)
        found = layout(tiles)
    backs = backs_taken_for_blank_faces(tiles, found)
    if backs.any():
        # Read again with them face down: the hand has a tile too many, and a kong's two
        # face-down ends were read as blank white dragons. Kept only if the hand then
        # counts 14: a whole hand's P a a P is no kong (a real-face hand of 14 with 9m P 9m 9m P
        # was read as a kong of 9m and then one short).
        turned = replace(tiles, face_down=tiles.face_down | backs)
        again = layout(turned)
        if _counted(again) == HAND_TILES:
            tiles, found = turned, again
    clock = _lap(timings, "layout", clock)
    decoded = decode(tiles, found, checked)
    # No legal win (none at all, or 13 tiles waiting: a win with a tile lost, or one too many
    # that put a true tile out of the count) is read again on the guesses below; a guess is
    # kept where it gives a legal hand, a win before a hand waiting to win.
    if _no_win(decoded) and (unclaimed := _false_claims(tiles, found)).any():
        # A "meld" whose tiles surely make none: its crosswise flag may be false (N F F of a
        # real-face seven pairs read as a claimed meld).
        upright = replace(tiles, sideways=tiles.sideways & ~unclaimed)
        again = layout(upright)
        redone = decode(upright, again, checked)
        if _better(redone, decoded):
            tiles, found, decoded = upright, _noted(again, FALSE_CLAIM), redone
    retry = _without_a_faint_lone_tile(tiles, found, checked) if _no_win(decoded) else None
    if retry is not None and _better(retry[2], decoded):
        tiles, found, decoded = retry
        found = _noted(found, FAINT_LONE_TILE)
    if _counted(found) != WAITING_TILES and _doubtful_win(decoded):
        # The tiles the count let in make no win the tiles read allow: read at most 13, a
        # hand waiting to win, for a tile near it (a discard, a misread flower) may have
        # joined it as the 14th. Kept where the tiles read allow that hand.
        again = layout(tiles, WAITING_TILES)
        redone = decode(tiles, again, checked)
        if redone.hand is not None and redone.plausibility >= REVIEW_PLAUSIBILITY:
            found, decoded = _noted(again, THIRTEEN_AFTER_ALL), redone
    clock = _lap(timings, "decode", clock)
    warnings = [*found.warnings, *(w for w in decoded.warnings if w not in found.warnings)]
    cut_off = image_size is not None and _touches_edge(tiles, image_size)
    if cut_off:
        warnings.append("a tile touches the photo's edge: part of the hand may be cut off")
    scored = _score(decoded.hand, ruleset, warnings)
    _lap(timings, "score", clock)
    # Not a review reason on its own: tight framing is common and usually harmless.
    reasons = review_reasons(found, decoded, scored, tiles)
    return Recognition(tiles, found, decoded, scored, warnings, bool(reasons), reasons, timings)


def _doubtful_win(decoded: Decoded) -> bool:
    """No legal hand, or a win only where the rules overruled a confident tile reading (of
    the wins so read on held-out designs' photos, 1 in 9 was right)."""
    return decoded.hand is None or (
        not decoded.waiting and decoded.plausibility < REVIEW_PLAUSIBILITY
    )


def _no_win(decoded: Decoded) -> bool:
    return decoded.hand is None or decoded.waiting


def _better(redone: Decoded, decoded: Decoded) -> bool:
    """A guess's reading is kept over the first where it reads a hand and the first none,
    or a win and the first a hand waiting to win."""
    if redone.hand is None:
        return False
    return decoded.hand is None or (decoded.waiting and not redone.waiting)


def _noted(found: Layout, guess: str) -> Layout:
    """`found` read again on a guess: the guess among its warnings and, unless the layout
    has one already, its ambiguity (so the photo is flagged)."""
    return replace(found, warnings=(*found.warnings, guess), ambiguity=found.ambiguity or guess)


def _without_a_faint_lone_tile(
    tiles: Tiles, found: Layout, context: Mapping[str, Any]
) -> tuple[Tiles, Layout, Decoded] | None:
    """The tiles, layout and decoding with one faint tile of the hand left out (the faintest
    first) when that gives a legal hand (a win, where the hand as read waits); None when none
    does. Left out as faint strays are:
    found too faintly to report. A faint lone tile may have taken a true one's place; any
    faint tile of a hand past 14 may be a false one (held-out KDE and training-source hands
    at 15 with a false tile found at 0.31-0.36 in a meld or beside it)."""
    hand = [g for g in found.groups if g.role in HAND_ROLES]
    past_14 = _counted(found) > HAND_TILES
    waiting = _counted(found) == HAND_TILES - 1
    faint = [
        t
        for g in hand
        if past_14 or (g.role in ("concealed", "winning") and len(g.tiles) == 1)
        for t in g.tiles
        if tiles.confidence[t] < STRAY_MIN_CONFIDENCE
    ]
    for tile in sorted(faint, key=lambda t: float(tiles.confidence[t])):
        rest = tiles[np.arange(len(tiles)) != tile]
        again = layout(rest)
        decoded = decode(rest, again, context)
        if decoded.hand is not None and not (waiting and decoded.waiting):
            return rest, again, decoded
    return None


def seen_twice(tiles: Tiles) -> list[tuple[int, int]]:
    """(kept, dropped) pairs of detections that are one tile lying crosswise.

    The detector may fire on a claimed tile both as the crosswise tile it is and as an upright
    one, two quads whose faces' centres lie well within a face of each other (held-out KDE and
    real-face photos: a pung read as a kong, the duplicate its fourth tile).
    Two centres closer than SEEN_TWICE_REACH of the faces' typical short side, one of them
    flagged sideways, are one tile: the more confident detection is kept, and it lies
    crosswise (keeping the upright quad instead cost a real-face pung its claimed
    tile). Pairs of upright tiles that close are left alone: in piles of discards they are
    different tiles.
    """
    if len(tiles) < 2:
        return []
    corners = tiles.corners
    sides = np.minimum(
        np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1),
        np.linalg.norm(corners[:, 3] - corners[:, 0], axis=1),
    )
    reach = SEEN_TWICE_REACH * float(np.median(sides))
    middles = corners.mean(axis=1)  # the faces' own centres: the boxes take in the bodies
    gaps = np.linalg.norm(middles[:, None] - middles[None], axis=2)
    pairs: list[tuple[int, int]] = []
    taken: set[int] = set()
    for i, j in zip(*np.nonzero(np.triu(gaps < reach, 1)), strict=True):
        if {int(i), int(j)} & taken or not (tiles.sideways[i] or tiles.sideways[j]):
            continue
        kept, dropped = (
            (int(i), int(j)) if tiles.confidence[i] >= tiles.confidence[j] else (int(j), int(i))
        )
        pairs.append((kept, dropped))
        taken |= {kept, dropped}
    return pairs


def _once_each(tiles: Tiles, pairs: list[tuple[int, int]]) -> Tiles:
    """`tiles` without each pair's dropped detection, its kept one flagged sideways."""
    crosswise = np.asarray(tiles.sideways, dtype=bool).copy()
    crosswise[[kept for kept, _ in pairs]] = True
    keep = np.ones(len(tiles), dtype=bool)
    keep[[dropped for _, dropped in pairs]] = False
    return replace(tiles, sideways=crosswise)[keep]


def _false_claims(tiles: Tiles, found: Layout) -> npt.NDArray[np.bool_]:
    """Per tile: crosswise in a meld of three whose readings surely make no chow or pung
    (under NO_MELD_READING, each tile's reading mixed with a little uniform mass as
    `meld_log_likelihood` does)."""
    doubted = np.zeros(len(tiles), dtype=bool)
    for group in found.melds:
        members = list(group.tiles)
        if len(members) != 3 or group.role != "meld":
            continue
        chance = meld_log_likelihood(tiles.probs[members][:, : len(PLAYING)], "chow_pung")
        if chance < np.log(NO_MELD_READING):
            doubted[[t for t in members if tiles.sideways[t]]] = True
    return doubted


def faint_strays(tiles: Tiles, found: Layout) -> npt.NDArray[np.bool_]:
    """Per tile: apart from the hand and found too faintly to report (STRAY_MIN_CONFIDENCE),
    unless it is one of a kong's backs (`_kongs_of_blanks`)."""
    apart = np.array([role == "stray" for role in role_of_each(found, len(tiles))], dtype=bool)
    for four in _kongs_of_blanks(tiles, found):
        apart[four] = False  # a pale back of a kong, faint as backs are to the detector
    faint: npt.NDArray[np.bool_] = apart & (tiles.confidence < STRAY_MIN_CONFIDENCE)
    return faint


def backs_between_backs(tiles: Tiles, found: Layout) -> npt.NDArray[np.bool_]:
    """Per tile: face up to the detector, but read as a back at SURE_BACK or more, between two
    face-down tiles of its row: a back whose flag the detector missed (a real-face concealed
    kong laid all face down, its third back face up at back 1.00: the row's three kongs then
    fell apart and no legal hand was read)."""
    down = np.asarray(tiles.face_down, dtype=bool)
    sure_back = tiles.probs[:, BACK_INDEX] >= SURE_BACK
    hidden = np.zeros(len(tiles), dtype=bool)
    for row in found.rows:
        for k in range(1, len(row) - 1):
            t = row[k]
            if not down[t] and sure_back[t] and down[row[k - 1]] and down[row[k + 1]]:
                hidden[t] = True
    return hidden


def faces_taken_for_backs(tiles: Tiles, found: Layout) -> npt.NDArray[np.bool_]:
    """Per tile: flagged face-down by the detector, yet left out by the melds of a row that
    holds part of the hand or its flowers, and read by the classifier as a face, not a back.

    A blank white dragon (Japanese sets, some KDE themes) looks to the detector like a tile's
    back; a concealed kong shows its backs beside the kong's other tiles, never alone. On the
    held-out KDE wins (`.cache/bench_kde4`), 19 photos warned of a face-down tile no meld
    took (most of them true backs of a kong the layout split); read again, 5 came out right
    (hands right 41.2 -> 42.0 %); the real-face wins, whose white dragon is framed, did not
    change. Also one to three such tiles read as backs, but at least BLANK_FACE_READING as
    a white dragon, when the hand lacks exactly them (a dark set's blank white dragons), or
    when, turned face up, they bring the hand to 14; and the backs of a concealed kong that
    shows two different faces, when the hand is one short (`_kongs_of_two_faces`).
    """
    hand_rows = {g.row for g in found.groups if g.role != "stray"}
    lone = np.zeros(len(tiles), dtype=bool)
    for group in found.of_role("stray"):
        if group.row in hand_rows:
            lone[list(group.tiles)] = True
    lone_backs = lone & tiles.face_down
    for four in _kongs_of_blanks(tiles, found):
        lone_backs[four] = False  # a kong's backs, read as white dragons
    read_as_face = tiles.probs[:, BACK_INDEX] < 0.5
    short = HAND_TILES - _counted(found)
    maybe_white = (
        lone_backs & _blank(tiles) & (tiles.probs[:, CLASSES.index("P")] >= BLANK_FACE_READING)
    )
    if 0 < short == int(lone_backs.sum()) <= 3 and (maybe_white == lone_backs).all():
        read_as_face |= lone_backs  # the hand lacks just these: blank white dragons
    turned: npt.NDArray[np.bool_] = lone_backs & read_as_face
    if not turned.any() and short > 0 and maybe_white.any():
        # Fewer backs than missing tiles, or more: turned, they may join a meld beside them
        # (a training-source claimed pung of blank white dragons: its sideways one read as a
        # back, another flagged face down, the hand two short).
        trial = replace(tiles, face_down=tiles.face_down & ~maybe_white)
        if _counted(layout(trial)) == HAND_TILES:
            turned = maybe_white
    if short == 1:
        for kong in _kongs_of_two_faces(tiles, found):
            turned[kong] = True
    return turned


def _kongs_of_two_faces(tiles: Tiles, found: Layout) -> list[list[int]]:
    """The face-down tiles of each concealed kong whose two shown faces read as two
    different tiles, each at least SURE_SHOWN_FACE, its backs each at least
    BLANK_FACE_READING a white dragon: no kong, but a pair of blank white dragons between two
    concealed tiles (training-source photos of a dark set: 8s P P 6p read as a concealed
    kong and the hand one short)."""
    down = np.asarray(tiles.face_down, dtype=bool)
    codes = tiles.codes
    kongs = []
    for group in found.of_role("concealed_kong"):
        members = list(group.tiles)
        shown = [t for t in members if not down[t]]
        backs = [t for t in members if down[t]]
        if (
            len(shown) == 2
            and codes[shown[0]] != codes[shown[1]]
            and (tiles.probs[shown].max(axis=1) >= SURE_SHOWN_FACE).all()
            and (tiles.probs[backs, CLASSES.index("P")] >= BLANK_FACE_READING).all()
        ):
            kongs.append(backs)
    return kongs


def backs_taken_for_blank_faces(tiles: Tiles, found: Layout) -> npt.NDArray[np.bool_]:
    """Per tile: the face-up ends of four tiles side by side in a row of the hand, X a a X,
    outside every meld, each X face down or read face up as a white dragon or a back (at
    least one of them face up), when the hand counts 14 tiles or more; or the face-up tiles
    of four blank ones, one to three of them face down and their neighbours in the row not
    blank, when as a kong they bring the hand to 14.

    The reverse of `faces_taken_for_backs`: a concealed kong laid with its two ends face down
    shows backs, and a back as pale as the faces looks to the detector and the classifier like
    a blank white dragon (training-source photos of an ivory-backed set: the ends read P
    at 0.93-0.99, the hand counted 15, or 14 with one end left out). A white dragon on
    either side of a pair is no likely concealed hand: a player keeps the dragons together.
    Nor is a lone face-down tile beside white dragons: a kong laid all face down, two of its
    pale backs read P (a training-source hand then counted 13).
    """
    backs = np.zeros(len(tiles), dtype=bool)
    counted_tiles = _counted(found)
    down = np.asarray(tiles.face_down, dtype=bool)
    pale = down | _blank(tiles)
    in_melds = {t for g in found.melds for t in g.tiles}
    hand_rows = {g.row for g in found.groups if g.role in ("concealed", "winning")}
    codes = tiles.codes
    for r in sorted(hand_rows):
        row = list(found.rows[r])
        for k in range(len(row) - 3):
            four = row[k : k + 4]
            if in_melds & {*four}:
                continue
            end, pair, other_end = four[0], four[1:3], four[3]
            middle = {codes[t] for t in pair}
            if (
                counted_tiles >= HAND_TILES
                and pale[[end, other_end]].all()
                and not down[[end, other_end]].all()
                and not down[pair].any()
                and len(middle) == 1
                and not middle & {"P", BACK}
            ):
                backs[[t for t in (end, other_end) if not down[t]]] = True
                break
    for four in _kongs_of_blanks(tiles, found):
        backs[[t for t in four if not down[t]]] = True
    return backs


def _kongs_of_blanks(tiles: Tiles, found: Layout) -> list[list[int]]:
    """Runs of four blank tiles (face down, or read as a white dragon or a back) in a row of
    the hand, outside every meld, at least one of them face up, their neighbours in the row
    not blank, which as a concealed kong bring the hand to 14: a kong laid all face down
    whose pale backs were read as white dragons (two of the four on a training-source photo;
    all four on a held-out KDE one, face up at P 0.69-0.97, the hand at 15)."""
    counted_tiles = _counted(found)
    down = np.asarray(tiles.face_down, dtype=bool)
    pale = down | _blank(tiles)
    in_melds = {t for g in found.melds for t in g.tiles}
    kongs = []
    for r in sorted({g.row for g in found.groups if g.role in ("concealed", "winning")}):
        row = list(found.rows[r])
        for k in range(len(row) - 3):
            four = row[k : k + 4]
            face_up = int((~down[four]).sum())
            bounded = not any(pale[row[j]] for j in (k - 1, k + 4) if 0 <= j < len(row))
            if (
                not in_melds & {*four}
                and pale[four].all()
                and face_up > 0
                and bounded
                and counted_tiles - face_up + 3 == HAND_TILES
            ):
                kongs.append(four)
                break
    return kongs


def _counted(found: Layout) -> int:
    """The hand's tiles toward 14 as laid out: its groups (a kong counts 3) and the winning
    tile."""
    return hand_count(list(found.groups)) + len(found.of_role("winning"))


def _blank(tiles: Tiles) -> npt.NDArray[np.bool_]:
    """Per tile: read as a white dragon or a back, together at least 0.9: a blank face."""
    read: npt.NDArray[np.bool_] = (
        tiles.probs[:, [CLASSES.index("P"), BACK_INDEX]].sum(axis=1) >= 0.9
    )
    return read


def doubts_score(reasons: list[str]) -> bool:
    """Whether any review reason could change the score: every one but a doubt over which
    flower a flower tile is (each ruleset counts flowers, none asks which: on the real-face
    wins that doubt alone flagged about a fifth of the hands, most of them right)."""
    return any(not reason.startswith(WHICH_FLOWER) for reason in reasons)


def review_reasons(
    found: Layout, decoded: Decoded, scored: Json | None, tiles: Tiles | None = None
) -> list[str]:
    """Why a person should check this photo; empty when the reading can be trusted."""
    reasons = []
    if tiles is not None and len(tiles):
        strays = [t for g in found.of_role("stray") for t in g.tiles]
        mass = tiles.probs[strays, FLOWER_SLICE].sum(axis=1)
        low, high = REVIEW_FLOWER_LEFT_OUT
        gaps = _gaps_to_the_hand(found, tiles, strays)
        # Without a hand to measure from, every stray counts as beside it, none as close.
        beside = gaps <= FLOWER_LEFT_OUT_REACH if gaps is not None else np.ones(len(strays), bool)
        doubtful = (mass >= low) & (mass < high) & beside
        sure = int(((mass >= high) & beside).sum())
        close = gaps is not None and bool(
            ((mass >= high) & (gaps <= SURE_FLOWER_LEFT_OUT_REACH)).any()
        )
        if sure >= SURE_FLOWERS_LEFT_OUT or close:
            reasons.append("flowers beside the hand were left out")
        if doubtful.any():
            reasons.append(
                counted(
                    int(doubtful.sum()),
                    "a tile left out of the hand may be a flower",
                    "tiles left out of the hand may be flowers",
                )
            )
    if decoded.hand is None:
        reasons.append("no legal hand was read")
    elif decoded.confidence < REVIEW_CONFIDENCE:
        if decoded.confidence / max(decoded.flower_confidence, 1e-9) >= REVIEW_CONFIDENCE:
            # Only which flower each is: the score, which counts flowers, stands.
            reasons.append(
                f"{WHICH_FLOWER} (flowers named right: {decoded.flower_confidence:.2f}); "
                "the score counts flowers alike"
            )
        else:
            reasons.append(
                f"another reading is possible (hand confidence {decoded.confidence:.2f})"
            )
    if decoded.hand is not None and decoded.plausibility < REVIEW_PLAUSIBILITY:
        reasons.append("the rules overruled a confident tile reading")
    if found.ambiguity:
        reasons.append(found.ambiguity)
    if tiles is not None and _concealed_set_out_like_a_meld(found, tiles):
        reasons.append(MELD_WITHOUT_CROSSWISE_TILE)
    if decoded.left_out:
        reasons.append("a doubtful detection was left out of the hand")
    if decoded.cut_short:
        # Many unsure tiles: the search for the likeliest legal hand ran out of time (a
        # held-out KDE hand's 2m 2m 2m read as 2p 2p 2p passed unflagged).
        reasons.append("the search for a legal hand was cut short")
    if tiles is not None and len(tiles):
        face_up = ~np.asarray(tiles.face_down, dtype=bool)
        unsure = int((tiles.probs[face_up].max(axis=1) < UNFAMILIAR_SET_READING).sum())
        if unsure >= UNFAMILIAR_SET_TILES:
            reasons.append(
                f"{unsure} tiles read unsure: a tile set the reader knows badly, whose sure "
                "readings may be wrong too"
            )
    if tiles is not None and len(tiles) and _more_than_a_set_holds(tiles, decoded):
        # Flowers read as white dragons among the discards (on a held-out GNOME photo, the
        # hand's pair of P and three flowers apart read P) passed as a hand without them.
        reasons.append(TOO_MANY_COPIES)
    # A hand waiting to win is no win (`valid` false), only one that waits on nothing is.
    waits = scored is not None and decoded.waiting and bool(scored.get("waits"))
    if scored is not None and not scored.get("valid", True) and not waits:
        reasons.append(f"the scorer rejects the hand: {scored.get('error')}")
    return reasons


def _more_than_a_set_holds(tiles: Tiles, decoded: Decoded) -> bool:
    """Whether the face-up tiles of the whole photo, hand and discards, as decoded, hold
    more than the four copies of a suit or honour tile that one set has."""
    shown = [c for c, down in zip(decoded.codes, tiles.face_down, strict=True) if not down]
    return any(shown.count(code) > COPIES for code in set(shown) & set(PLAYING))


def _gaps_to_the_hand(
    found: Layout, tiles: Tiles, strays: list[int]
) -> npt.NDArray[np.float64] | None:
    """Per stray tile: how many face widths its centre lies from the hand's nearest tile's;
    None when the layout found no hand tile or no face width."""
    hand = [t for g in found.groups if g.role != "stray" for t in g.tiles]
    width = found.tile_size[0]
    if not hand or width <= 0:
        return None
    centres = tiles.centers
    gaps = np.linalg.norm(centres[strays][:, None] - centres[hand][None], axis=2).min(axis=1)
    return np.asarray(gaps / width, dtype=np.float64)


def _concealed_set_out_like_a_meld(found: Layout, tiles: Tiles) -> bool:
    """A run of three or four concealed tiles lying where melds lie: between two melds of its
    row, or beyond the winning tile from the rest of the concealed tiles. Concealed tiles lie
    together, the winning tile at their end; such a run is likelier a claimed meld whose
    crosswise tile the detector did not see (held-out KDE photos: a chow and a pung read as
    concealed, legal hands passing unflagged)."""
    along = np.asarray(tiles.centers @ np.array([-found.up[1], found.up[0]]), np.float64)
    for row in {g.row for g in found.groups}:
        runs = [
            (run[0].role, sum(len(g.tiles) for g in run))
            for run in runs_along(found.groups, row, along, HAND_ROLES)
        ]
        roles = [role for role, _ in runs]
        melds = [j for j, role in enumerate(roles) if role in ("meld", "concealed_kong")]
        wins = [j for j, role in enumerate(roles) if role == "winning"]
        for k, (role, size) in enumerate(runs):
            if role != "concealed" or size not in (3, 4):
                continue
            if any(j < k for j in melds) and any(j > k for j in melds):
                return True
            others = [j for j, role in enumerate(roles) if role == "concealed" and j != k]
            if any(min(j, k) < w < max(j, k) for j in others for w in wins):
                return True
    return False


def check_context(context: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate the win context; raises ContextError naming the bad field."""
    checked: dict[str, Any] = {}
    for key, value in (context or {}).items():
        if key not in _CONTEXT_KEYS:
            raise ContextError(f"unknown context field {key!r}; known: {', '.join(_CONTEXT_KEYS)}")
        if value is None:
            continue
        if key in ("seat_wind", "prevalent_wind"):
            if str(value).upper() not in WINDS:
                raise ContextError(f"{key} must be one of E, S, W, N, not {value!r}")
            value = str(value).upper()
        elif key == "flowers":
            value = _check_flowers(value)
        elif key == "concealed_kongs":
            value = _check_kongs(value)
        else:
            value = bool(value)
        checked[key] = value
    return checked


def _check_flowers(value: Any) -> int | list[str]:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 8:
        return value
    listed = isinstance(value, list | tuple) and all(v in FLOWERS for v in value)
    if listed and len(set(value)) == len(value):
        return [str(v) for v in value]
    raise ContextError(f"flowers must be a count 0-8 or distinct codes 1h-8h, not {value!r}")


def _check_kongs(value: Any) -> list[str]:
    codes = value.split(",") if isinstance(value, str) else value
    if isinstance(codes, list | tuple) and all(str(c).strip() in PLAYING for c in codes):
        return [str(c).strip() for c in codes]
    raise ContextError(f"concealed_kongs must list tile codes such as ['5p'], not {value!r}")


def _score(hand: Json | None, ruleset: str, warnings: list[str]) -> Json | None:
    if hand is None:
        return None
    result: Json = score_hand(hand, ruleset).to_json()
    return result


def _tiles_json(tiles: Tiles, found: Layout, decoded: Decoded) -> list[Json]:
    roles = role_of_each(found, len(tiles))
    out = []
    for i in range(len(tiles)):
        code = decoded.codes[i]
        probs = tiles.probs[i]
        order = np.argsort(-probs)
        alternatives = [
            {"code": CLASSES[k], "p": round(float(probs[k]), 4)}
            for k in order[:4]
            if CLASSES[k] != code and probs[k] >= 0.01
        ][:3]
        out.append(
            {
                "code": code,
                "box": [round(float(v), 1) for v in tiles.xyxy[i]],
                # The face's corners (TL, TR, BR, BL as read): what a correction teaches a set.
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in tiles.corners[i]],
                "confidence": round(float(probs[CLASSES.index(code)]), 4),
                "alternatives": alternatives,
                "sideways": bool(tiles.sideways[i]),
                "face_down": bool(tiles.face_down[i] or code == BACK),
                "role": roles[i],
                "detector_confidence": round(float(tiles.confidence[i]), 4),
            }
        )
    return out


def _touches_edge(tiles: Tiles, image_size: tuple[int, int], margin: float = 2.0) -> bool:
    width, height = image_size
    box = tiles.xyxy
    inside = (box[:, 0] > margin) & (box[:, 1] > margin)
    inside &= (box[:, 2] < width - margin) & (box[:, 3] < height - margin)
    return bool(len(tiles) and not inside.all())


def _lap(timings: dict[str, float], stage: str, since: float) -> float:
    now = time.perf_counter()
    timings[stage] = (now - since) * 1000
    return now
