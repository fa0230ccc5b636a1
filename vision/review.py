"""The review checks: why a person should look at a reading before trusting it.

Each check is a note (`vision.notes`) with the tiles it is about. `review_notes` runs them
all on a finished reading; `doubts_score` says whether any of them could change the score.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from scoring.tiles import COPIES, PLAYING
from vision.decode import Decoded
from vision.hand_rows import counted
from vision.layout import Layout, runs_along
from vision.notes import Note, NoteCode
from vision.roles import HAND_ROLES, MELD_ROLES, Role
from vision.types import FLOWER_SLICE, Tiles

Json = dict[str, Any]

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
# A photo in which this many face-up tiles, hand or not, read under this top probability
# shows a set the classifier knows badly, and there its confident readings fail too: the
# wrong hands that passed unflagged on the held-out KDE wins were of unseen designs read with
# confidence (KDE traditional's 6s as 9s at 0.99), most beside tiles read unsure. Three
# tiles under 0.6, with those figures in view (the training sources held one unflagged
# wrong hand, too few to choose by): see docs/recognize.md.
UNFAMILIAR_SET_READING = 0.6
UNFAMILIAR_SET_TILES = 3
TOO_MANY_COPIES = "the photo shows more than four of one tile: some are misread"
WHICH_FLOWER = "which flower a flower tile is may be wrong"
# Readings that rest on a tile the detector found only faintly (`vision.unseen`,
# `vision.faint_flowers`): taken or left out, whether it is there is a guess.
_FAINT_GUESSES = frozenset(
    {NoteCode.FAINT_TILE_TAKEN, NoteCode.FAINT_FLOWER_TAKEN, NoteCode.FAINT_FLOWER_LEFT_OUT}
)
MELD_WITHOUT_CROSSWISE_TILE = (
    "concealed tiles lie where melds lie: a meld whose crosswise tile was not seen?"
)


def doubts_score(doubts: list[Note]) -> bool:
    """Whether any review reason could change the score: every one but a doubt over which
    flower a flower tile is (each ruleset counts flowers, none asks which: on the real-face
    wins that doubt alone flagged about a fifth of the hands, most of them right)."""
    return any(note.code is not NoteCode.WHICH_FLOWER for note in doubts)


def review_notes(
    found: Layout, decoded: Decoded, scored: Json | None, tiles: Tiles | None = None
) -> list[Note]:
    """The review checks that fired: why a person should check this photo; empty when none
    did."""
    notes: list[Note] = []
    if tiles is not None and len(tiles):
        notes += _flowers_left_out(found, tiles)
    hand = tuple(t for g in found.groups if g.role in HAND_ROLES for t in g.tiles)
    if decoded.hand is None:
        notes.append(Note(NoteCode.NO_LEGAL_HAND, "no legal hand was read"))
    elif decoded.confidence < REVIEW_CONFIDENCE:
        if decoded.confidence / max(decoded.flower_confidence, 1e-9) >= REVIEW_CONFIDENCE:
            # Only which flower each is: the score, which counts flowers, stands.
            message = (
                f"{WHICH_FLOWER} (flowers named right: {decoded.flower_confidence:.2f}); "
                "the score counts flowers alike"
            )
            notes.append(Note(NoteCode.WHICH_FLOWER, message, found.flowers))
        else:
            message = f"another reading is possible (hand confidence {decoded.confidence:.2f})"
            doubted = tuple(sorted({c.tile for c in decoded.changes} & set(hand)))
            notes.append(Note(NoteCode.ANOTHER_READING, message, doubted))
    if decoded.hand is not None and decoded.plausibility < REVIEW_PLAUSIBILITY:
        changed = tuple(c.tile for c in decoded.changes)
        message = "the rules overruled a confident tile reading"
        notes.append(Note(NoteCode.OVERRULED_READING, message, changed))
    if found.doubt is not None:
        notes.append(found.doubt)
    notes += [n for n in found.notes if n.code in _FAINT_GUESSES and n not in notes]
    if tiles is not None and (run := _concealed_set_out_like_a_meld(found, tiles)):
        notes.append(Note(NoteCode.CONCEALED_SET_LIKE_MELD, MELD_WITHOUT_CROSSWISE_TILE, run))
    if decoded.left_out:
        message = "a doubtful detection was left out of the hand"
        notes.append(Note(NoteCode.DOUBTFUL_TILE_LEFT_OUT, message, tuple(decoded.left_out)))
    if decoded.cut_short:
        # Many unsure tiles: the search for the likeliest legal hand ran out of its budget
        # and a likelier legal hand may exist.
        message = "the search for a legal hand was cut short"
        notes.append(Note(NoteCode.SEARCH_CUT_SHORT, message))
    if tiles is not None and len(tiles):
        face_up = ~np.asarray(tiles.face_down, dtype=bool)
        unsure = face_up & (tiles.probs.max(axis=1) < UNFAMILIAR_SET_READING)
        if int(unsure.sum()) >= UNFAMILIAR_SET_TILES:
            message = (
                f"{int(unsure.sum())} tiles read unsure: a tile set the reader knows badly, "
                "whose sure readings may be wrong too"
            )
            notes.append(Note(NoteCode.UNFAMILIAR_SET, message, _indices(unsure)))
    if tiles is not None and len(tiles) and (copies := _more_than_a_set_holds(tiles, decoded)):
        # Flowers read as white dragons among the discards passed as a hand without them.
        notes.append(Note(NoteCode.TOO_MANY_COPIES, TOO_MANY_COPIES, copies))
    # A hand waiting to win is no win (`valid` false), only one that waits on nothing is.
    waits = scored is not None and decoded.waiting and bool(scored.get("waits"))
    if scored is not None and not scored.get("valid", True) and not waits:
        message = f"the scorer rejects the hand: {scored.get('error')}"
        notes.append(Note(NoteCode.SCORER_REJECTS, message, hand))
    return notes


def _flowers_left_out(found: Layout, tiles: Tiles) -> list[Note]:
    """Tiles left out of the hand that may be its flowers: unsure ones beside it, or sure
    ones where the hand's own flowers lie. Flowers are the faces read worst, and a flower
    row read as suit tiles is left out as apart from the hand while the hand stays legal."""
    notes = []
    strays = [t for g in found.of_role(Role.STRAY) for t in g.tiles]
    mass = tiles.probs[strays, FLOWER_SLICE].sum(axis=1)
    low, high = REVIEW_FLOWER_LEFT_OUT
    gaps = _gaps_to_the_hand(found, tiles, strays)
    # Without a hand to measure from, every stray counts as beside it, none as close.
    beside = gaps <= FLOWER_LEFT_OUT_REACH if gaps is not None else np.ones(len(strays), bool)
    doubtful = (mass >= low) & (mass < high) & beside
    sure = (mass >= high) & beside
    close = gaps is not None and bool(((mass >= high) & (gaps <= SURE_FLOWER_LEFT_OUT_REACH)).any())
    if int(sure.sum()) >= SURE_FLOWERS_LEFT_OUT or close:
        left = tuple(t for t, s in zip(strays, sure, strict=True) if s)
        message = "flowers beside the hand were left out"
        notes.append(Note(NoteCode.FLOWERS_LEFT_OUT, message, left))
    if doubtful.any():
        message = counted(
            int(doubtful.sum()),
            "a tile left out of the hand may be a flower",
            "tiles left out of the hand may be flowers",
        )
        maybe = tuple(t for t, d in zip(strays, doubtful, strict=True) if d)
        notes.append(Note(NoteCode.MAYBE_FLOWER_LEFT_OUT, message, maybe))
    return notes


def _indices(mask: npt.NDArray[np.bool_]) -> tuple[int, ...]:
    return tuple(int(t) for t in np.flatnonzero(mask))


def _more_than_a_set_holds(tiles: Tiles, decoded: Decoded) -> tuple[int, ...]:
    """The face-up tiles of the whole photo, hand and discards, whose code as decoded shows
    more than the four copies of a suit or honour tile that one set has; () when none."""
    shown = [
        c if not down else None for c, down in zip(decoded.codes, tiles.face_down, strict=True)
    ]
    over = {code for code in set(shown) & set(PLAYING) if shown.count(code) > COPIES}
    return tuple(t for t, code in enumerate(shown) if code in over)


def _gaps_to_the_hand(
    found: Layout, tiles: Tiles, strays: list[int]
) -> npt.NDArray[np.float64] | None:
    """Per stray tile: how many face widths its centre lies from the hand's nearest tile's;
    None when the layout found no hand tile or no face width."""
    hand = [t for g in found.groups if g.role != Role.STRAY for t in g.tiles]
    width = found.tile_size[0]
    if not hand or width <= 0:
        return None
    centres = tiles.centers
    gaps = np.linalg.norm(centres[strays][:, None] - centres[hand][None], axis=2).min(axis=1)
    return np.asarray(gaps / width, dtype=np.float64)


def _concealed_set_out_like_a_meld(found: Layout, tiles: Tiles) -> tuple[int, ...]:
    """A run of three or four concealed tiles lying where melds lie (its tiles; () when
    none): between two melds of its row, or beyond the winning tile from the rest of the
    concealed tiles. Concealed tiles lie together, the winning tile at their end; such a run
    is likelier a claimed meld whose crosswise tile the detector did not see (on held-out
    designs, a chow and a pung read as concealed, legal hands passing unflagged)."""
    along = np.asarray(tiles.centers @ np.array([-found.up[1], found.up[0]]), np.float64)
    for row in {g.row for g in found.groups}:
        runs = runs_along(found.groups, row, along, HAND_ROLES)
        roles = [run[0].role for run in runs]
        melds = [j for j, role in enumerate(roles) if role in MELD_ROLES]
        wins = [j for j, role in enumerate(roles) if role == Role.WINNING]
        for k, run in enumerate(runs):
            members = tuple(t for g in run for t in g.tiles)
            if roles[k] != Role.CONCEALED or len(members) not in (3, 4):
                continue
            if any(j < k for j in melds) and any(j > k for j in melds):
                return members
            others = [j for j, role in enumerate(roles) if role == Role.CONCEALED and j != k]
            if any(min(j, k) < w < max(j, k) for j in others for w in wins):
                return members
    return ()
