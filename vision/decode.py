"""Rule-aware decoding: the most probable LEGAL hand from the classifier's probabilities.

A misread tile usually makes the hand illegal: a fifth copy, a chow that is not a chow, no
winning shape. So instead of taking each tile's top code, the decoder enumerates readings in
order of probability (best-first over each tile's top-k codes, each meld's legal codes) and
keeps the first that the rules accept, plus the runners-up, whose probabilities give the
hand's confidence. Tiles are independent given the photo, so a reading's probability is the
product of its tiles' calibrated probabilities. The photo adds one thing the classifier,
reading each face alone, cannot see: copies of a face look alike. The legal readings are
weighed again by how alike the faces they name as one code look (`vision.looks`), and the
likeliest by both is the hand. The flowers are named apart: one of each flower, weighed by
how alike the tiles named of one group (flowers, or seasons) look.

Thirteen tiles (a kong counting 3) are a hand waiting to win (听牌), shown before the winning
tile came: the same search keeps the readings that wait on some tile (`vision.shape.is_waiting`:
any MCR shape, no fifth copy), and the hand has no winning tile.
"""

from __future__ import annotations

import heapq
import json
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache, cached_property
from itertools import pairwise, permutations
from typing import Any

import numpy as np
import numpy.typing as npt

from scoring import parse_hand_or_waiting, parse_waiting
from scoring import score as score_hand
from scoring.hand import Hand, HandError, Waiting
from scoring.tiles import BACK, CLASSES, COPIES, FLOWERS, PLAYING, SEASONS
from scoring.waits import winning_tiles
from vision.hand_rows import HAND_TILES
from vision.layout import WAITING_TILES, Group, Layout
from vision.looks import alike, log_likeness_ratio, log_same_group_ratio
from vision.notes import Note, NoteCode, messages
from vision.roles import Role
from vision.shape import is_waiting, is_winning
from vision.types import FLOWER_SLICE, Tiles

TOP_K = 6  # codes tried per loose tile
MELD_OPTIONS = 6  # codes tried per meld
# A little uniform mass: a tile the classifier misread with confidence can still be corrected.
_UNIFORM_SHARE = 0.01
_SEARCH_SPAN = 9.0  # stop when readings are e^9 less probable than the best legal one
# The search's budget is counted in readings, not seconds, so that a photo reads the same on
# any machine under any load: with 0.25 s of wall clock, a real-face hand read right or
# wrong by the machine's load, and a wrong held-out KDE hand passed unflagged on a loaded one.
# 10,000 readings take at most 0.42 s here (held-out KDE wins; median 4 ms); 5,000 lost
# that real-face hand, 20,000 and 40,000 gained one KDE score and took 0.63 and 1.8 s at
# worst (docs/recognize.md). The clock stays only as a guard against a machine far slower.
_MAX_READINGS = 10000
_BUDGET_S = 3.0
_SLOT = {code: k for k, code in enumerate(PLAYING)}
_CHOWS = tuple(
    tuple(PLAYING.index(f"{r + k}{s}") for k in range(3)) for s in "mps" for r in range(1, 8)
)
_PERMUTATIONS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
_MELD_ALONE_SPAN = 4.6  # a lone meld reading may be up to e^4.6 = 100x less probable
_DOUBTFUL = 0.5  # detector confidence under which a surplus tile may be left out
# How much the tiles' looks count against their probabilities (`_weigh_looks`): half, as
# the pairs a reading names alike share their tiles and are not independent evidence. 0.25,
# 0.5 and 1 read the training sources' and the real-face wins alike, and the held-out KDE
# wins within one hand of each other (docs/recognize.md).
LOOKS_WEIGHT = 0.5
_WEIGHED_READINGS = 500  # the likeliest legal readings weighed by looks
# Log-odds against a reading whose concealed tiles would lie out of a player's sorted order
# (`_weigh_order`): most players sort (the scene engine draws 85 %), and a kept-unsorted
# hand's arrangement is one of very many, so a reading that sorts it is worth about
# log(0.85 / (0.15 x 1 %)) = 6 nats. 4, 6 and 8 read the same training-source wins right;
# on the held-out KDE wins they gain six, seven and eight hands, the real-face wins none
# (docs/recognize.md): 6 is the value reasoned, not the best seen.
UNSORTED_COST = 6.0
_FLAGS = ("self_drawn", "last_tile", "last_of_wall", "kong_replacement", "robbing_kong")
_WIN_FLAGS = ("self_drawn", "last_tile", "kong_replacement", "robbing_kong")  # one win's only

Json = dict[str, Any]


@dataclass(frozen=True)
class Change:
    """A tile whose code the rules changed from the classifier's first choice."""

    tile: int
    read: str
    chosen: str
    p_read: float
    p_chosen: float

    def to_json(self) -> Json:
        return {
            "tile": self.tile,
            "read": self.read,
            "chosen": self.chosen,
            "p_read": round(self.p_read, 4),
            "p_chosen": round(self.p_chosen, 4),
        }


@dataclass(frozen=True)
class Floor:
    """The least log plausibility a reading must reach to matter: a win's, a waiting hand's."""

    win: float = -math.inf
    waiting: float = -math.inf


@dataclass
class Decoded:
    """The decoded hand, or `hand=None` with notes saying why none was found.

    Attributes:
        codes: per tile index, the code reported (decoded for hand tiles, top class otherwise;
            `back` for a face-down tile).
        confidence: probability of this hand among the legal readings found (0 if none).
        flower_confidence: the factor of `confidence` that is the flower tiles' names, which
            flower each is (every ruleset here scores only how many flowers).
        plausibility: probability of the best legal reading relative to the tile-by-tile top
            reading (1 when no rule had to change anything).
        cut_short: the search stopped at its budget: a likelier legal hand may exist.
        below_floor: no legal reading is as plausible as the caller's floor asked, so none
            was looked for further (`decode`'s `floor`).
        waiting: the hand is 13 tiles waiting to win (no winning tile), not a declared win.
    """

    hand: Hand | Waiting | None
    codes: list[str]
    melds: list[Json] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    alternatives: list[tuple[Hand | Waiting, float]] = field(default_factory=list)
    confidence: float = 0.0
    flower_confidence: float = 1.0
    plausibility: float = 0.0
    notes: list[Note] = field(default_factory=list)
    readings_tried: int = 0
    left_out: list[int] = field(default_factory=list)  # doubtful detections not in the hand
    cut_short: bool = False
    below_floor: bool = False
    waiting: bool = False

    @property
    def warnings(self) -> list[str]:
        """The notes' English sentences."""
        return messages(self.notes)

    def _take(self, named: _Named) -> None:
        """The tiles' codes, changes and melds of one naming, into this decoding."""
        for tile, code in named.codes.items():
            self.codes[tile] = code
        self.changes += named.changes
        self.melds += named.melds


@dataclass
class _Named:
    """What naming some tiles gives: their codes, the changes from the classifier's first
    choice, and the melds named."""

    codes: dict[int, str] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)
    melds: list[Json] = field(default_factory=list)

    def __iadd__(self, other: _Named) -> _Named:
        self.codes.update(other.codes)
        self.changes += other.changes
        self.melds += other.melds
        return self


@dataclass(frozen=True)
class _Reading:
    """The chosen hand among the legal readings (`_report`)."""

    hand: Json
    confidence: float
    alternatives: list[tuple[Json, float]]
    plausibility: float
    named: _Named


@dataclass(frozen=True)
class _Variable:
    """One independent choice: a loose tile, or a whole meld (its tiles must agree)."""

    group: Group | None  # None for a loose concealed / winning tile
    tiles: tuple[int, ...]
    options: tuple[tuple[float, tuple[str, ...]], ...]  # (cost, code per tile), cheapest first

    @cached_property
    def slots(self) -> tuple[tuple[int, ...], ...]:
        """Per option, each tile's index in PLAYING (34: a kong's unknown tile), worked out
        once: the search counts them for every reading it tries."""
        return tuple(
            tuple(_SLOT.get(code, len(PLAYING)) for code in codes) for _, codes in self.options
        )


def decode(
    tiles: Tiles,
    found: Layout,
    context: Mapping[str, Any] | None = None,
    floor: Floor | None = None,
) -> Decoded:
    """Find the most probable legal hand given the tiles, their layout and the win context:
    a winning hand of 14 tiles, or a hand of 13 waiting to win (a tile set apart then counts
    among the rest; the context's flags of one win do not apply).

    `floor`: the least log plausibility worth a reading, for a win and for a hand waiting;
    where no legal reading reaches it, the decoding stops there with no hand (`below_floor`).
    A caller comparing layouts passes what no longer matters to it: the answer is the same
    for every reading above the floor, and reached sooner where none is.

    Example:
        >>> decoded = decode(tiles, layout(tiles), {"seat_wind": "S", "self_drawn": True})
        ... # doctest: +SKIP
        >>> decoded.hand.winning_tile, decoded.confidence
        ('5p', 0.98)
    """
    context = dict(context or {})
    codes = _top_codes(tiles)
    out = Decoded(hand=None, codes=codes)
    flowers, flower_confidence, named_flowers, flower_notes = _decode_flowers(tiles, found.flowers)
    out._take(named_flowers)
    out.notes += flower_notes
    if "flowers" in context:
        flower_confidence = 1.0  # the player's word, not the photo's
        told = context["flowers"]
        if flowers and (len(told) if isinstance(told, list) else told) != len(flowers):
            message = (
                f"the context's flowers ({told}) replace the {len(flowers)} flowers in the photo"
            )
            out.notes.append(Note(NoteCode.CONTEXT_FLOWERS, message, found.flowers))
    variables, unknown_kongs = _variables(tiles, found, context)
    if unknown_kongs:
        message = (
            "a concealed kong shows no face: give its tile (concealed_kongs, e.g. ['5p']) "
            "to score the hand"
        )
        hidden = tuple(t for v in variables if BACK in v.options[0][1] for t in v.tiles)
        out.notes.append(Note(NoteCode.HIDDEN_KONG_UNKNOWN, message, hidden))
    n_tiles = sum(min(3, len(v.tiles)) for v in variables)
    if HAND_TILES < n_tiles <= HAND_TILES + 2:
        variables, n_tiles, dropped_tiles = _drop_doubtful(tiles, variables, n_tiles, found)
        out.left_out += dropped_tiles
        out.notes += [_doubtful_note(tiles, tile) for tile in dropped_tiles]
    if n_tiles not in (HAND_TILES, WAITING_TILES):
        message = (
            f"found {n_tiles} hand tiles; a declared win has 14 and a hand waiting to win 13 "
            "(a kong counts as 3)"
        )
        out.notes.append(Note(NoteCode.WRONG_TILE_COUNT, message))
        out._take(_melds_alone(tiles, variables))
        return out
    out.waiting = n_tiles == WAITING_TILES
    if out.waiting:
        context, dropped = _waiting_context(context)
        out.notes += dropped
    elif found.winning is None:
        out.notes.append(Note(NoteCode.NO_WINNING_TILE, "no winning tile found"))
        out._take(_melds_alone(tiles, variables))
        return out
    winning = None if out.waiting else found.winning
    # What the cheapest reading costs over the tile-by-tile one: a reading's plausibility
    # is exp(-(its extra cost + above_raw)), so the floor bounds the extra cost searched.
    above_raw = sum(v.options[0][0] for v in variables) - sum(
        _cheapest_alone(tiles, v) for v in variables
    )
    least = -math.inf if floor is None else floor.waiting if out.waiting else floor.win
    readings, out.readings_tried, stop = _search(
        variables, len(found.melds), out.waiting, -least - above_raw
    )
    out.cut_short, out.below_floor = stop is _Stop.BUDGET, stop is _Stop.FLOOR
    if out.below_floor:
        message = "no legal hand as plausible as another layout's reading"
        out.notes.append(Note(NoteCode.NO_LEGAL_HAND, message))
        return out
    if out.cut_short:
        message = "decoding stopped at its budget; the search was cut short"
        out.notes.append(Note(NoteCode.SEARCH_CUT_SHORT, message))
    if not readings:
        what = "waiting" if out.waiting else "winning"
        message = f"no legal {what} hand matches the tiles read"
        out.notes.append(Note(NoteCode.NO_LEGAL_HAND, message))
        out._take(_melds_alone(tiles, variables))
        return out
    weighed = _weigh_order(found, variables, _weigh_looks(tiles, variables, readings))
    reading = _report(tiles, winning, variables, weighed, context, flowers, above_raw)
    if reading is None:
        what = "a winning" if winning is not None else "a waiting"
        message = f"no reading the rules accept as {what} hand"
        out.notes.append(Note(NoteCode.NO_LEGAL_HAND, message))
        return out
    out._take(reading.named)
    # The seam to scoring: the hand and its runner-ups leave as scoring's own checked types.
    out.hand = None if unknown_kongs else parse_hand_or_waiting(reading.hand)
    out.confidence = reading.confidence * flower_confidence
    out.alternatives = _parsed(reading.alternatives)
    out.plausibility = reading.plausibility
    out.flower_confidence = flower_confidence
    return out


def _waiting_context(context: dict[str, Any]) -> tuple[dict[str, Any], list[Note]]:
    """The context without the flags that describe one win (self-drawn, last tile, ...): a
    waiting hand's every wait is scored on a discard and self-drawn; and a note of the flags
    left out, if any."""
    given = [flag for flag in _WIN_FLAGS if context.get(flag)]
    notes = []
    if given:
        message = (
            f"{', '.join(given)} left out: 13 tiles wait to win, and each wait is scored on a "
            "discard and self-drawn"
        )
        notes.append(Note(NoteCode.WIN_FLAGS_DROPPED, message))
    return {k: v for k, v in context.items() if k not in _WIN_FLAGS}, notes


def _drop_doubtful(
    tiles: Tiles, variables: list[_Variable], n_tiles: int, found: Layout
) -> tuple[list[_Variable], int, list[int]]:
    """One or two tiles too many: drop loose tiles the detector itself doubted (a reflection,
    a coin, a tile from the next seat), never the winning tile. Returns the variables left,
    their count of tiles and the tiles dropped."""
    loose = [v for v in variables if v.group is None and v.tiles[0] != found.winning]
    doubtful = sorted(loose, key=lambda v: float(tiles.confidence[v.tiles[0]]))
    drop = doubtful[: n_tiles - 14]
    if not drop or any(tiles.confidence[v.tiles[0]] >= _DOUBTFUL for v in drop):
        return variables, n_tiles, []
    return [v for v in variables if v not in drop], 14, [v.tiles[0] for v in drop]


def _doubtful_note(tiles: Tiles, tile: int) -> Note:
    message = (
        f"left out tile #{tile}: the detector doubts it (confidence "
        f"{tiles.confidence[tile]:.2f}) and the hand has a tile too many"
    )
    return Note(NoteCode.DOUBTFUL_TILE_LEFT_OUT, message, (tile,))


def _melds_alone(tiles: Tiles, variables: list[_Variable]) -> _Named:
    """No legal hand, but each meld laid out as one (a crosswise tile, face-down ends) is
    still a meld: read its tiles as the most probable legal meld, where that is not far from
    what the classifier saw, so the tiles listed are as right as they can be."""
    named = _Named()
    for variable in variables:
        if variable.group is None:
            continue
        cost, codes = variable.options[0]
        raw = _cheapest_alone(tiles, variable)
        if BACK in codes or cost - raw > _MELD_ALONE_SPAN:
            continue
        named += _named(tiles, [variable], [0])
    return named


def _top_codes(tiles: Tiles) -> list[str]:
    return [BACK if tiles.face_down[i] else code for i, code in enumerate(tiles.codes)]


def _playing_probs(tiles: Tiles, index: int) -> npt.NDArray[np.float64]:
    """The tile's probabilities over the 34 playing codes, given that it is one of them."""
    p = tiles.probs[index, : len(PLAYING)].astype(np.float64)
    total = p.sum()
    p = p / total if total > 0 else np.full(len(PLAYING), 1 / len(PLAYING))
    return np.asarray((1 - _UNIFORM_SHARE) * p + _UNIFORM_SHARE / len(PLAYING))


def _variables(
    tiles: Tiles, found: Layout, context: Mapping[str, Any]
) -> tuple[list[_Variable], int]:
    """One variable per meld and per loose tile, and how many concealed kongs show no face
    and were not named by the context (their code is `back`)."""
    variables: list[_Variable] = []
    hidden: list[Group] = []
    told = [str(c) for c in context.get("concealed_kongs") or []]
    for group in found.melds:
        costs = [-np.log(_playing_probs(tiles, i)) for i in group.tiles]
        visible = [c for c, i in zip(costs, group.tiles, strict=True) if not _down(tiles, i)]
        if group.role == Role.MELD:
            options = _meld_options(costs)
        elif visible:
            options = _kong_options(visible)
            if options[0][1][0] in told:  # the context named a kong the photo shows anyway
                told.remove(options[0][1][0])
        else:
            hidden.append(group)
            continue
        variables.append(_Variable(group, group.tiles, options))
    unknown = 0
    for group in hidden:  # faces all hidden: the tile can only come from the context
        code = told.pop(0) if told else BACK
        unknown += code == BACK
        variables.append(_Variable(group, group.tiles, ((0.0, (code,) * 4),)))
    loose = [*found.concealed, *([found.winning] if found.winning is not None else [])]
    for i in loose:
        cost = -np.log(_playing_probs(tiles, i))
        best = np.argsort(cost)[:TOP_K]
        options = tuple((float(cost[k]), (PLAYING[k],)) for k in best)
        variables.append(_Variable(None, (i,), options))
    return variables, unknown


def _down(tiles: Tiles, index: int) -> bool:
    return bool(tiles.face_down[index])  # the detector's call, as in the layout


def _meld_options(
    costs: list[npt.NDArray[np.float64]],
) -> tuple[tuple[float, tuple[str, ...]], ...]:
    """Every legal meld for these tiles (pung / chow in any order; kong), cheapest first."""
    stacked = np.stack(costs)
    options = [(float(stacked[:, k].sum()), (PLAYING[k],) * len(costs)) for k in range(34)]
    if len(costs) == 3:
        for run in _CHOWS:
            for order in _PERMUTATIONS:
                picked = tuple(run[o] for o in order)
                cost = sum(float(stacked[t, k]) for t, k in enumerate(picked))
                options.append((cost, tuple(PLAYING[k] for k in picked)))
    options.sort()
    return tuple(options[:MELD_OPTIONS])


def _kong_options(
    visible: list[npt.NDArray[np.float64]],
) -> tuple[tuple[float, tuple[str, ...]], ...]:
    """A concealed kong's code from its face-up tiles (they must all agree)."""
    total = np.sum(visible, axis=0)
    best = np.argsort(total)[:MELD_OPTIONS]
    return tuple((float(total[k]), (PLAYING[k],) * 4) for k in best)


class _Stop(Enum):
    DONE = "done"
    BUDGET = "budget"  # at _MAX_READINGS (or the clock's guard)
    FLOOR = "floor"  # no legal reading within the extra cost allowed


def _search(
    variables: list[_Variable], melds: int, waiting: bool, most_extra: float = math.inf
) -> tuple[list[tuple[float, list[int]]], int, _Stop]:
    """Legal readings, best first: lazy best-first enumeration of the product of options;
    with the readings tried and why the search stopped. Where no legal reading costs at most
    `most_extra` over the cheapest, it stops with none.

    A state is a choice index per variable; its children raise the last raised index or raise a
    later one from 0 to 1, so each state is reached once and costs never decrease.
    """
    start = [0] * len(variables)
    heap: list[tuple[float, list[int], int]] = [(0.0, start, -1)]
    stop = _Stop.DONE
    legal: list[tuple[float, list[int]]] = []
    deadline = time.perf_counter() + _BUDGET_S
    tried = 0
    while heap:
        extra, choice, last = heapq.heappop(heap)
        if legal and extra > legal[0][0] + _SEARCH_SPAN:
            break
        if not legal and extra > most_extra:
            return [], tried, _Stop.FLOOR
        tried += 1
        if _legal(variables, choice, melds, waiting):
            legal.append((extra, choice))
        for j in range(max(last, 0), len(variables)):
            if j != last and (j < last or choice[j] != 0):
                continue
            k = choice[j] + 1
            if k >= len(variables[j].options):
                continue
            child = [*choice]
            child[j] = k
            cost = extra + variables[j].options[k][0] - variables[j].options[k - 1][0]
            heapq.heappush(heap, (cost, child, j))
        if (tried >= _MAX_READINGS and heap) or time.perf_counter() > deadline:
            stop = _Stop.BUDGET
            break
    return legal, tried, stop


def _legal(variables: list[_Variable], choice: list[int], melds: int, waiting: bool) -> bool:
    """At most four copies of a tile, and a winning shape (14 tiles) or a wait (13)."""
    counts = [0] * 35  # the 35th slot takes a concealed kong whose tile is unknown
    concealed = [0] * 34
    for variable, k in zip(variables, choice, strict=True):
        for slot in variable.slots[k]:
            counts[slot] += 1
            if variable.group is None:
                concealed[slot] += 1
    if max(counts[:34]) > COPIES:
        return False
    if waiting:
        return is_waiting(tuple(concealed), melds, tuple(counts[:34]))
    return is_winning(tuple(concealed), melds)


def _weigh_looks(
    tiles: Tiles, variables: list[_Variable], readings: list[tuple[float, list[int]]]
) -> list[tuple[float, float, list[int]]]:
    """The legal readings as (cost weighed by looks, cost, choice), cheapest weighed first.

    Tiles read as one code should look alike (copies of a face are printed alike), so every
    pair a reading names alike takes off the log likelihood ratio of its likeness
    (`vision.looks`). A systematic misread (a 6s of an unseen design read as 9s beside true
    9s) names two faces that look unlike as one code, and a legal reading that parts them
    gains."""
    face_up = [i for v in variables for i in v.tiles if not _down(tiles, i)]
    if tiles.looks.size == 0 or len(face_up) < 2:
        return [(extra, extra, choice) for extra, choice in readings]
    evidence = log_likeness_ratio(alike(tiles.looks[face_up])).astype(np.float64)
    np.fill_diagonal(evidence, 0.0)
    slot = {tile: k for k, tile in enumerate(face_up)}
    weighed = []
    for extra, choice in readings[:_WEIGHED_READINGS]:
        codes = np.full(len(face_up), -1)
        for variable, k in zip(variables, choice, strict=True):
            for i, code in zip(variable.tiles, variable.options[k][1], strict=True):
                if i in slot and code != BACK:
                    codes[slot[i]] = PLAYING.index(code)
        same = (codes[:, None] == codes[None, :]) & (codes[:, None] >= 0)
        looks = float(evidence[same].sum()) / 2  # each pair once
        weighed.append((extra - LOOKS_WEIGHT * looks, extra, choice))
    weighed.sort(key=lambda reading: reading[0])
    return weighed


def _weigh_order(
    found: Layout, variables: list[_Variable], readings: list[tuple[float, float, list[int]]]
) -> list[tuple[float, float, float, list[int]]]:
    """The readings as (weighed cost, cost, order cost, choice), cheapest weighed first: the
    order cost is UNSORTED_COST where the concealed tiles, row by row, would not lie in a
    player's sorted order (`kept_sorted`), else 0.

    Most players keep their concealed tiles sorted, so a reading that puts them out of order
    is unlikely unless every reading does (a hand kept unsorted): an unseen design's 6s read
    9s between two 5s breaks the order, the true reading keeps it."""
    rows: dict[int, list[int]] = {}
    for group in found.of_role(Role.CONCEALED):
        rows.setdefault(group.row, []).extend(group.tiles)
    where = {v.tiles[0]: k for k, v in enumerate(variables) if v.group is None}
    sequences = [[where[t] for t in row if t in where] for row in rows.values()]
    out = []
    for weighed, extra, choice in readings:
        codes = [[variables[k].options[choice[k]][1][0] for k in seq] for seq in sequences]
        order = 0.0 if all(kept_sorted(row) for row in codes) else UNSORTED_COST
        out.append((weighed + order, extra, order, choice))
    out.sort(key=lambda reading: reading[0])
    return out


def kept_sorted(codes: list[str]) -> bool:
    """Whether tiles lie as a player sorts them, read either way along the row: each suit's
    tiles together and in rank order, the honours together in any order."""

    def one_way(seq: list[str]) -> bool:
        done: set[str] = set()
        for a, b in pairwise(seq):
            suit_a, suit_b = _suit(a), _suit(b)
            if suit_a == suit_b:
                if suit_a != "z" and int(b[0]) < int(a[0]):
                    return False
                continue
            done.add(suit_a)
            if suit_b in done:
                return False
        return True

    return one_way(codes) or one_way(codes[::-1])


def _suit(code: str) -> str:
    return code[1] if code[0].isdigit() else "z"


def _report(
    tiles: Tiles,
    winning: int | None,
    variables: list[_Variable],
    readings: list[tuple[float, float, float, list[int]]],
    context: Mapping[str, Any],
    flowers: list[str],
    above_raw: float,
) -> _Reading | None:
    """The chosen hand among the legal readings (`_weigh_looks`, `_weigh_order`), its
    confidence, alternatives, plausibility and tiles named; None when scoring accepts none
    of the likeliest. The looks and the order choose the hand; its
    confidence is its probability among the readings by the tiles' probabilities and the
    order: the likeness of every pair named alike is not independent evidence, and counted
    as such it made wrong hands look sure; how a player keeps a hand is. The plausibility
    compares the tiles' probabilities alone (a hand kept unsorted is no overruled reading)."""
    weights: dict[str, float] = {}
    masses: dict[str, float] = {}
    hands: dict[str, tuple[Json, list[int], float]] = {}
    best_weighed = readings[0][0]
    best = min(extra + order for _, extra, order, _ in readings[:200])
    for weighed, extra, order, choice in readings[:200]:
        hand = _hand_json(variables, choice, winning, context, flowers)
        key = json.dumps(hand, sort_keys=True)
        weights[key] = weights.get(key, 0.0) + math.exp(best_weighed - weighed)
        masses[key] = masses.get(key, 0.0) + math.exp(best - extra - order)
        hands.setdefault(key, (hand, choice, extra))
    ranked = sorted(weights, key=lambda k: -weights[k])
    chosen = next((k for k in ranked[:20] if scoring_accepts(hands[k][0])), None)
    if chosen is None:
        return None
    total = sum(masses.values())
    hand, choice, best_extra = hands[chosen]
    return _Reading(
        hand=hand,
        confidence=masses[chosen] / total,
        alternatives=[(hands[k][0], masses[k] / total) for k in ranked if k != chosen][:3],
        plausibility=math.exp(-(best_extra + above_raw)),
        named=_named(tiles, variables, choice),
    )


def _cheapest_alone(tiles: Tiles, variable: _Variable) -> float:
    """Cost of the tiles' top codes taken one by one, rules ignored (the raw reading). Of a
    concealed kong only its faces shown count: two that read as two tiles cost their kong."""
    shown = variable.tiles
    if variable.group is not None and variable.group.role == Role.CONCEALED_KONG:
        shown = tuple(i for i in variable.tiles if not _down(tiles, i))
    return sum(float(-np.log(_playing_probs(tiles, i).max())) for i in shown)


def _named(tiles: Tiles, variables: list[_Variable], choice: list[int]) -> _Named:
    """The codes, changes and melds of one choice per variable (face-down tiles keep `back`)."""
    named = _Named()
    for variable, k in zip(variables, choice, strict=True):
        chosen = variable.options[k][1]
        for i, code in zip(variable.tiles, chosen, strict=True):
            if not _down(tiles, i) and code != BACK:
                named.codes[i] = code
        if variable.group is not None:
            named.melds.append(_meld_json(variable.group, chosen))
    named.changes = _changes(tiles, named.codes)
    return named


def _changes(tiles: Tiles, codes: dict[int, str]) -> list[Change]:
    """The tiles whose code differs from the classifier's first choice."""
    read = tiles.codes
    out = []
    for i, code in codes.items():
        if code != read[i]:
            p = tiles.probs[i]
            out.append(Change(i, read[i], code, float(p.max()), float(p[CLASSES.index(code)])))
    return out


def _meld_json(group: Group, codes: tuple[str, ...]) -> Json:
    meld: Json = {"type": _meld_type(codes), "tiles": _sorted(codes)}
    if group.role == Role.CONCEALED_KONG:
        meld["concealed"] = True
    elif meld["type"] == "chow":
        meld["claimed_from"] = "left"  # only the left player's discard can be chowed (吃)
        if group.claimed is not None:
            meld["claimed_tile"] = codes[group.tiles.index(group.claimed)]
    else:
        meld["claimed_from"] = group.claimed_from or "left"
    meld["tile_indices"] = list(group.tiles)
    return meld


def _meld_type(codes: tuple[str, ...]) -> str:
    if len(codes) == 4:
        return "kong"
    return "pung" if len(set(codes)) == 1 else "chow"


def _sorted(codes: tuple[str, ...] | list[str]) -> list[str]:
    order = {c: i for i, c in enumerate((*PLAYING, *FLOWERS, BACK))}
    return sorted(codes, key=order.__getitem__)


def _hand_json(
    variables: list[_Variable],
    choice: list[int],
    winning: int | None,
    context: Mapping[str, Any],
    flowers: list[str],
) -> Json:
    """The Hand JSON of one reading; `winning` is the winning tile's index, None for a hand
    waiting to win (its `winning_tile` null, without the flags of one win)."""
    melds, concealed = [], []
    won = None
    for variable, k in zip(variables, choice, strict=True):
        codes = variable.options[k][1]
        if variable.group is None:
            if variable.tiles[0] == winning:
                won = codes[0]
            else:
                concealed.append(codes[0])
            continue
        meld = _meld_json(variable.group, codes)
        meld.pop("tile_indices")
        melds.append(meld)
    hand: Json = {
        "melds": sorted(melds, key=lambda m: json.dumps(m, sort_keys=True)),
        "concealed": _sorted(concealed),
        "winning_tile": won,
        "seat_wind": str(context.get("seat_wind", "E")),
        "prevalent_wind": str(context.get("prevalent_wind", "E")),
        "flowers": context.get("flowers", flowers),
    }
    for flag in _FLAGS if won is not None else ("last_of_wall",):
        hand[flag] = bool(context.get(flag, False))
    return hand


def _decode_flowers(
    tiles: Tiles, indices: tuple[int, ...]
) -> tuple[list[str], float, _Named, list[Note]]:
    """Distinct flower codes (one of each in a set) maximizing the product of probabilities
    and the evidence of their looks (`_naming_weights`), the probability that every flower
    is right, the tiles so named, and a note where there are more than a set has."""
    if not indices:
        return [], 1.0, _Named(), []
    chosen_indices = list(indices)
    notes = []
    if len(chosen_indices) > len(FLOWERS):
        message = f"{len(indices)} flowers found; a set has only {len(FLOWERS)}"
        notes.append(Note(NoteCode.TOO_MANY_FLOWERS, message, tuple(indices)))
        chosen_indices = chosen_indices[: len(FLOWERS)]
    namings, log_weights = _naming_weights(tiles, chosen_indices)
    best = int(np.argmax(log_weights))
    picks = namings[best]
    codes = {i: FLOWERS[k] for i, k in zip(chosen_indices, picks, strict=True)}
    named = _Named(codes, _changes(tiles, codes))
    weights = np.exp(log_weights - log_weights[best])
    return _sorted([FLOWERS[k] for k in picks]), float(1.0 / weights.sum()), named, notes


def _naming_weights(
    tiles: Tiles, indices: list[int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Every naming of the flower tiles at `indices` with one of each flower, (m, n) indices
    into FLOWERS, and each one's log weight: the sum of its tiles' log shares (each tile's
    probabilities among the flowers), plus the log likelihood ratio of one group for every
    pair it names of one group (`vision.looks.log_same_group_ratio`). The chosen naming's
    chance of being right is its weight over the sum of all: a set holds each flower once,
    so two tiles each half 1h, half 5h are right together half of the time, not a quarter.
    At most 8! = 40,320 namings."""
    shares = tiles.probs[indices, FLOWER_SLICE].astype(np.float64) + 1e-9
    shares /= shares.sum(axis=1, keepdims=True)
    namings = _namings(len(indices))
    rows = np.arange(len(indices))
    log_weights = np.log(shares)[rows, namings].sum(axis=1)
    if len(indices) > 1 and tiles.looks.size:
        evidence = log_same_group_ratio(alike(tiles.looks[indices])).astype(np.float64)
        season = np.isin(namings, [FLOWERS.index(code) for code in SEASONS])
        for a in range(len(indices)):
            for b in range(a + 1, len(indices)):
                log_weights += evidence[a, b] * (season[:, a] == season[:, b])
    return namings, log_weights


def _parsed(hands: list[tuple[Json, float]]) -> list[tuple[Hand | Waiting, float]]:
    """Runner-up readings as scoring's types; one scoring cannot parse (checked by shape
    alone, unlike the chosen hand) is no legal alternative and is left out."""
    out: list[tuple[Hand | Waiting, float]] = []
    for hand, p in hands:
        try:
            out.append((parse_hand_or_waiting(hand), p))
        except HandError:
            continue
    return out


@cache
def _namings(n: int) -> npt.NDArray[np.int64]:
    """(m, n) every way to name n tiles with distinct flowers, as indices into FLOWERS."""
    return np.array(list(permutations(range(len(FLOWERS)), n)), np.int64).reshape(-1, n)


def scoring_accepts(hand: Json) -> bool:
    """scoring's own verdict on the hand (the shape tests above only pre-filter): a win it
    scores, or 13 tiles some tile completes. A hand scoring cannot parse (a concealed kong
    whose tile no face shows) is none it accepts."""
    if hand.get("winning_tile") is None:
        try:
            return bool(winning_tiles(parse_waiting(hand)))
        except HandError:
            return False
    return bool(score_hand(hand).valid)
