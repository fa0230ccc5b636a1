"""Repairs of the detector's and the layout's commonest slips, each tried where it helps.

`laid_out` reads the layout again where a tile was seen twice, found too faintly apart from
the hand, or its face-down flag contradicts the hand; `read_again` decodes again on a guess
(a false crosswise flag, a faint tile in the hand, 13 tiles after all) where the first
decoding found no legal win. Each guess kept is a note among the layout's, and its doubt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from scoring.tiles import BACK, CLASSES, PLAYING
from vision.decode import Decoded, decode
from vision.geometry import meld_log_likelihood
from vision.hand_rows import HAND_TILES, hand_count
from vision.layout import WAITING_TILES, Layout, layout, role_of_each
from vision.notes import Note, NoteCode
from vision.roles import HAND_ROLES, Role
from vision.types import BACK_INDEX, Tiles

# The best legal reading this much less probable than the tile-by-tile reading: the rules
# overruled a confident tile reading (also a review check, `vision.review`).
OVERRULED = 0.02

# Detector confidence under which a tile apart from the hand is not reported. The detector
# keeps peaks down to 0.3 so that no hand tile is lost, but apart from the hand a faint peak
# is more often a prop, a shadow or the table's texture than a tile: on photos of the
# training sources (runs/tune_proc) the floor leaves out 7 false tiles for 5 true ones, on
# the real-face wins 64 for 18 (`benchmarks/strays.py`). Tiles in the hand keep the 0.3.
STRAY_MIN_CONFIDENCE = 0.4
# Centres this close, in the faces' typical short side, one of them sideways: one tile seen
# twice (`seen_twice`). 0.45 against 0.55 and 0.7: those passed a wrong training-source hand.
SEEN_TWICE_REACH = 0.45
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
THIRTEEN_AFTER_ALL = (
    "read as 13 tiles waiting to win, a tile near them left out: with it no win was read "
    "that the tiles as read allow"
)


def laid_out(tiles: Tiles) -> tuple[Tiles, Layout]:
    """The tiles and their layout, after the repairs that the layout itself shows are
    needed: a tile seen twice counted once, faint tiles apart from the hand dropped, and
    face-down flags set again where the hand contradicts them."""
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
        # counts 14: a whole hand's P a a P is no kong.
        turned = replace(tiles, face_down=tiles.face_down | backs)
        again = layout(turned)
        if _counted(again) == HAND_TILES:
            tiles, found = turned, again
    return tiles, found


def read_again(
    tiles: Tiles, found: Layout, decoded: Decoded, context: Mapping[str, Any]
) -> tuple[Tiles, Layout, Decoded]:
    """No legal win (none at all, or 13 tiles waiting: a win with a tile lost, or one too
    many that put a true tile out of the count) is read again on the guesses below; a guess
    is kept where it gives a legal hand, a win before a hand waiting to win."""
    if _no_win(decoded) and (unclaimed := _false_claims(tiles, found)).any():
        # A "meld" whose tiles surely make none: its crosswise flag may be false (N F F of
        # a seven pairs read as a claimed meld).
        upright = replace(tiles, sideways=tiles.sideways & ~unclaimed)
        again = layout(upright)
        redone = decode(upright, again, context)
        if _better(redone, decoded):
            note = Note(
                NoteCode.FALSE_CLAIM, FALSE_CLAIM, tuple(int(t) for t in np.flatnonzero(unclaimed))
            )
            tiles, found, decoded = upright, again.noted(note), redone
    retry = _without_a_faint_lone_tile(tiles, found, context) if _no_win(decoded) else None
    if retry is not None and _better(retry[2], decoded):
        tiles, found, decoded = retry
        found = found.noted(Note(NoteCode.FAINT_TILE_LEFT_OUT, FAINT_LONE_TILE))
    if _counted(found) != WAITING_TILES and _doubtful_win(decoded):
        # The tiles the count let in make no win the tiles read allow: read at most 13, a
        # hand waiting to win, for a tile near it (a discard, a misread flower) may have
        # joined it as the 14th. Kept where the tiles read allow that hand.
        again = layout(tiles, WAITING_TILES)
        redone = decode(tiles, again, context)
        if redone.hand is not None and redone.plausibility >= OVERRULED:
            found = again.noted(Note(NoteCode.READ_AS_THIRTEEN, THIRTEEN_AFTER_ALL))
            decoded = redone
    return tiles, found, decoded


def _doubtful_win(decoded: Decoded) -> bool:
    """No legal hand, or a win only where the rules overruled a confident tile reading (of
    the wins so read on held-out designs' photos, 1 in 9 was right)."""
    return decoded.hand is None or (not decoded.waiting and decoded.plausibility < OVERRULED)


def _no_win(decoded: Decoded) -> bool:
    return decoded.hand is None or decoded.waiting


def _better(redone: Decoded, decoded: Decoded) -> bool:
    """A guess's reading is kept over the first where it reads a hand and the first none,
    or a win and the first a hand waiting to win."""
    if redone.hand is None:
        return False
    return decoded.hand is None or (decoded.waiting and not redone.waiting)


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
        if past_14 or (g.role in (Role.CONCEALED, Role.WINNING) and len(g.tiles) == 1)
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
        if len(members) != 3 or group.role != Role.MELD:
            continue
        chance = meld_log_likelihood(tiles.probs[members][:, : len(PLAYING)], "chow_pung")
        if chance < np.log(NO_MELD_READING):
            doubted[[t for t in members if tiles.sideways[t]]] = True
    return doubted


def faint_strays(tiles: Tiles, found: Layout) -> npt.NDArray[np.bool_]:
    """Per tile: apart from the hand and found too faintly to report (STRAY_MIN_CONFIDENCE),
    unless it is one of a kong's backs (`_kongs_of_blanks`)."""
    apart = np.array([role == Role.STRAY for role in role_of_each(found, len(tiles))], dtype=bool)
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
    hand_rows = {g.row for g in found.groups if g.role != Role.STRAY}
    lone = np.zeros(len(tiles), dtype=bool)
    for group in found.of_role(Role.STRAY):
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
    for group in found.of_role(Role.CONCEALED_KONG):
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
    hand_rows = {g.row for g in found.groups if g.role in (Role.CONCEALED, Role.WINNING)}
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
    for r in sorted({g.row for g in found.groups if g.role in (Role.CONCEALED, Role.WINNING)}):
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
    return hand_count(list(found.groups)) + len(found.of_role(Role.WINNING))


def _blank(tiles: Tiles) -> npt.NDArray[np.bool_]:
    """Per tile: read as a white dragon or a back, together at least 0.9: a blank face."""
    read: npt.NDArray[np.bool_] = (
        tiles.probs[:, [CLASSES.index("P"), BACK_INDEX]].sum(axis=1) >= 0.9
    )
    return read
