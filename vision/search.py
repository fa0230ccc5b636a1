"""The layout search: which tiles form the hand, how they lie and what they are, found by one
best-first search over hypotheses under one objective.

A hypothesis is a set of moves (`vision.moves`) applied to the tiles as detected, laid out
(`vision.layout`) and decoded (`vision.decode`). Its score, in nats, is

    log P(each detection's membership of the win | the priors)       (`vision.priors`)
  + the flag priors' gain of its moves (face down, crosswise)
  + log(best legal reading / tile-by-tile reading) of the hand's tiles  (`Decoded.plausibility`)

the decoder's calibrated log-probabilities of the faces against the fitted log-priors of the
layout; a hypothesis with no legal hand scores nothing, nor one that keeps both detections of
a tile seen twice, turns a tile up or down at the price of overruling a confident reading,
or lacks a concealed kong the player named. Hypotheses are tried best-first on an upper bound
(the faces' term is at most 0, each detection's membership at most its likelier state), with
a budget counted in hypotheses, so that a photo reads the same on any machine.
The k best are weighed by their scores: a hand's probability is its share of them, summed
over the hypotheses that read it.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from scoring.hand import Hand, Waiting
from scoring.tiles import CLASSES
from vision.decode import Decoded, Floor, decode
from vision.hand_rows import HAND_TILES
from vision.layout import WAITING_TILES, Layout, layout, role_of_each
from vision.moves import Move, MoveKind, apply_moves, propose, unreported
from vision.notes import Note, NoteCode
from vision.priors import Attribute, LayoutPriors, log_probs
from vision.roles import Role
from vision.types import Tiles

Array = npt.NDArray[np.float64]

# Hypotheses laid out and decoded at most per photo (the search's budget, like the decoder's
# readings: counted, not timed).
MAX_HYPOTHESES = 16
# The search stops where no hypothesis left can come within 1 % of the best found: it would
# move the hands' probabilities by less.
SPAN = math.log(100)
K_BEST = 4  # hands reported: the chosen one and its runners-up
DROPPED_FROM_HAND = "a detection in the hand was left out: the hand is likelier without it"
TURNED_UPRIGHT = "a crosswise flag was taken as false: the hand is likelier upright"


@dataclass(frozen=True)
class Hypothesis:
    """One reading of the table: the moves made, and what they lead to."""

    moves: tuple[Move, ...]
    tiles: Tiles
    kept: npt.NDArray[np.int_]  # each tile's index among the tiles as detected
    found: Layout
    decoded: Decoded
    score: float  # -inf where no legal hand is read


@dataclass(frozen=True)
class SearchResult:
    """The chosen hypothesis (its decoding's confidence and alternatives weighed over the k
    best), the hypotheses tried, and each kept one's posterior share."""

    tiles: Tiles
    found: Layout
    decoded: Decoded
    tried: int
    ranked: tuple[tuple[Hypothesis, float], ...]


def read(
    tiles: Tiles, context: Mapping[str, Any], priors: LayoutPriors, most: int | None = None
) -> SearchResult:
    """The most probable reading of `tiles` under the objective, from at most MAX_HYPOTHESES
    hypotheses. Where no hypothesis reads a win that the tiles read allow, the base layout is
    also read as 13 tiles waiting to win (the photo's kind is the count's, not a prior's)."""
    base = layout(tiles, most or HAND_TILES)
    if (faint := unreported(tiles, base)).any():
        tiles = tiles[np.flatnonzero(~faint)]
        base = layout(tiles, most or HAND_TILES)
    odds = priors.log_odds(tiles, base)
    member, outside = log_probs(odds[Attribute.OF_THE_WIN])
    moves = propose(tiles, base, odds)
    best_each = np.maximum(member, outside)

    def bound(chosen: tuple[int, ...]) -> float:
        dropped = {t for k in chosen for t in moves[k].dropped}
        gain = sum(moves[k].log_odds for k in chosen)
        return gain + sum(
            float(outside[t]) if t in dropped else float(best_each[t]) for t in range(len(tiles))
        )

    twins = [move.tiles for move in moves if move.kind is MoveKind.MERGE_TWICE]

    def evaluate(chosen: tuple[int, ...], floor: Floor) -> Hypothesis:
        picked = tuple(moves[k] for k in chosen)
        first = base if not chosen else None
        return _hypothesis(tiles, picked, context, member, outside, most, first, twins, floor)

    done, tried = _best_first(moves, bound, evaluate, counts_waiting=most is not None)
    laid_in_win = np.array([r != Role.STRAY for r in role_of_each(base, len(tiles))], bool)
    result = _weighed(done, tried, laid_in_win)
    if most is None and doubtful_win(result.decoded):
        waiting = read(tiles, context, priors, WAITING_TILES)
        if waiting.decoded.hand is not None and waiting.decoded.plausibility >= _OVERRULED:
            note = Note(NoteCode.READ_AS_THIRTEEN, THIRTEEN_AFTER_ALL)
            found = waiting.found.noted(note)
            return replace(waiting, found=found, tried=tried + waiting.tried)
    return result


def _best_first(
    moves: list[Move],
    bound: Callable[[tuple[int, ...]], float],
    evaluate: Callable[[tuple[int, ...], Floor], Hypothesis],
    counts_waiting: bool,
) -> tuple[list[Hypothesis], int]:
    """The hypotheses tried, best first, and how many: sets of moves (indices into `moves`,
    each set reached once), tried in the order of their bound, each tried one's score then
    standing in for its bound. Stops at MAX_HYPOTHESES, at K_BEST legal readings (wins, or
    hands waiting where `counts_waiting`) popped, or when no bound comes within SPAN.

    Each is decoded above a floor: a reading whose score, at most its bound plus its log
    plausibility, would fall more than SPAN below the best of its kind found so far weighs
    under 1 % and is not looked for; nor is a hand waiting once a win is found, as a win
    comes first (`_weighed`)."""
    heap: list[tuple[float, int, tuple[int, ...], Hypothesis | None]] = [(-bound(()), 0, (), None)]
    done: list[Hypothesis] = []
    layouts: set[tuple[object, ...]] = set()
    best = {True: -math.inf, False: -math.inf}  # the best score found, by decoded.waiting
    tried, tick = 0, 1
    while heap:
        negative, _, chosen, hypothesis = heapq.heappop(heap)
        if hypothesis is not None:
            done.append(hypothesis)
            legal = [h for h in done if h.score > -math.inf]
            if sum(counts_waiting or not h.decoded.waiting for h in legal) >= K_BEST:
                break  # every hypothesis left is bounded by the k-th best's score
            continue
        if done and done[0].score > -math.inf and done[0].score + negative > SPAN:
            break
        if tried >= MAX_HYPOTHESES:
            break
        win, waiting = best[False] - SPAN + negative, best[True] - SPAN + negative
        if best[False] > -math.inf and not counts_waiting:
            waiting = math.inf
        hypothesis = evaluate(chosen, Floor(win, waiting))
        tried += 1
        kind = hypothesis.decoded.waiting
        best[kind] = max(best[kind], hypothesis.score)
        if (seen := _laid_out_as(hypothesis)) not in layouts:
            # The same hand laid the same way (a stray dropped that was out anyway) is one
            # explanation, weighed once; its children are still tried.
            layouts.add(seen)
            heapq.heappush(heap, (-hypothesis.score, tick, chosen, hypothesis))
        tick += 1
        touched = {t for k in chosen for t in moves[k].tiles}
        for k in range(chosen[-1] + 1 if chosen else 0, len(moves)):
            if not touched & set(moves[k].tiles):
                heapq.heappush(heap, (-bound((*chosen, k)), tick, (*chosen, k), None))
                tick += 1
    done += [h for _, _, _, h in heap if h is not None]
    done.sort(key=lambda h: -h.score)
    return done, tried


# A win read only by overruling a confident tile reading is no win the tiles allow.
_OVERRULED = 0.02
_POSES = (MoveKind.TURN_FACE_DOWN, MoveKind.TURN_FACE_UP)
THIRTEEN_AFTER_ALL = (
    "read as 13 tiles waiting to win, a tile near them left out: with it no win was read "
    "that the tiles as read allow"
)


def doubtful_win(decoded: Decoded) -> bool:
    """No hand, or a win only where the rules overrule a confident tile reading (under
    2 %): a win the tiles as read do not allow."""
    return decoded.hand is None or (not decoded.waiting and decoded.plausibility < _OVERRULED)


def _hypothesis(
    tiles: Tiles,
    moves: tuple[Move, ...],
    context: Mapping[str, Any],
    member: Array,
    outside: Array,
    most: int | None,
    base: Layout | None,
    twins: list[tuple[int, ...]],
    floor: Floor,
) -> Hypothesis:
    """Lay out and decode the tiles as `moves` read them, and score the reading. A reading
    that holds both detections of a tile seen twice (`MoveKind.MERGE_TWICE`'s pairs) in the
    win is none: one tile cannot lie in two places of the hand."""
    edited, kept = apply_moves(tiles, moves)
    found = base if base is not None else layout(edited, most or HAND_TILES)
    decoded = decode(edited, found, context, floor)
    roles = role_of_each(found, len(edited))
    left_out = set(decoded.left_out)
    in_win = np.zeros(len(tiles), dtype=bool)
    for k, role in enumerate(roles):
        in_win[kept[k]] = role != Role.STRAY and k not in left_out
    score = float(np.where(in_win, member, outside).sum()) + sum(m.log_odds for m in moves)
    if decoded.below_floor or any(in_win[list(pair)].all() for pair in twins):
        score = -math.inf
    elif decoded.hand is None and _withheld(decoded):
        # The kong's tile is unknown, not wrong: its faces weigh nothing either way.
        score += math.log(min(decoded.plausibility, 1.0)) if decoded.plausibility > 0 else 0.0
    elif decoded.hand is None or decoded.plausibility <= 0 or _unlike_told(decoded, context):
        score = -math.inf
    elif any(m.kind in _POSES for m in moves) and _posed(edited, kept, decoded, moves) < _OVERRULED:
        # A tile turned up or down to read a hand that overrules a confident reading: a
        # blank tile's pose may be either, but not at that price (P 1m 2m P is no concealed
        # kong; a tile read as a back at 0.99 is no white dragon).
        score = -math.inf
    else:
        score += math.log(min(decoded.plausibility, 1.0))
    return Hypothesis(moves, edited, kept, found, decoded, score)


def _posed(
    tiles: Tiles, kept: npt.NDArray[np.int_], decoded: Decoded, moves: tuple[Move, ...]
) -> float:
    """The decoding's plausibility, times, for each tile turned face up, its decoded face's
    probability against its top class, back included: a face turned up is a face the
    classifier must not surely deny (a tile turned down shows none to deny)."""
    plausibility = decoded.plausibility
    turned_up = {t for m in moves if m.kind is MoveKind.TURN_FACE_UP for t in m.tiles}
    for k in np.flatnonzero(np.isin(kept, list(turned_up))):
        p = tiles.probs[k]
        plausibility *= float(p[CLASSES.index(decoded.codes[k])] / max(float(p.max()), 1e-9))
    return plausibility


def _unlike_told(decoded: Decoded, context: Mapping[str, Any]) -> bool:
    """The hand lacks a concealed kong the player named (`concealed_kongs`): the player's
    word outweighs any reading of the photo."""
    told = [str(c) for c in context.get("concealed_kongs") or []]
    if not told or decoded.hand is None:
        return False
    kongs = [m.tiles[0] for m in decoded.hand.melds if m.concealed]
    return any(told.count(code) > kongs.count(code) for code in set(told))


def _withheld(decoded: Decoded) -> bool:
    """A legal reading found, its hand withheld: a concealed kong shows no face."""
    return any(note.code is NoteCode.HIDDEN_KONG_UNKNOWN for note in decoded.notes)


def _laid_out_as(hypothesis: Hypothesis) -> tuple[object, ...]:
    """What tells two hypotheses apart: the win's groups and each of its tiles' flags, by
    the indices of the tiles as detected."""
    kept, tiles = hypothesis.kept, hypothesis.tiles
    groups = sorted(
        (g.role.value, tuple(int(kept[t]) for t in g.tiles))
        for g in hypothesis.found.groups
        if g.role != Role.STRAY
    )
    flags = tuple(
        (int(kept[t]), bool(tiles.face_down[t]), bool(tiles.sideways[t]))
        for _, members in groups
        for t in np.flatnonzero(np.isin(kept, members))
    )
    return (*groups, flags, hypothesis.decoded.waiting)


def _weighed(
    done: list[Hypothesis], tried: int, laid_in_win: npt.NDArray[np.bool_]
) -> SearchResult:
    """The chosen reading: the hand likeliest over the K_BEST hypotheses (each weighed by its
    score, each hand within one by its decoding's share), read by the best hypothesis that
    reads it; its confidence and alternatives are those shares."""
    legal = [h for h in done if h.score > -math.inf]
    if any(not h.decoded.waiting for h in legal):
        # A win before a hand waiting to win, whatever the scores: a move that loses a tile
        # of a win leaves 13 that nearly always wait on something.
        legal = [h for h in legal if not h.decoded.waiting]
    legal = legal[:K_BEST]
    if not legal or legal[0].decoded.hand is None:
        # No legal hand; or the likeliest is one a concealed kong's unknown tile withholds,
        # which no other reading may stand in for.
        first = legal[0] if legal else done[0]
        return SearchResult(first.tiles, first.found, first.decoded, tried, ((first, 0.0),))
    legal = [h for h in legal if h.decoded.hand is not None]
    top = legal[0].score
    weights = np.array([math.exp(h.score - top) for h in legal])
    weights /= weights.sum()
    # Hands are scoring's values: one hand read by two hypotheses is one key.
    shares: dict[Hand | Waiting, float] = {}
    reader: dict[Hand | Waiting, Hypothesis] = {}
    for h, w in zip(legal, weights, strict=True):
        flower = max(h.decoded.flower_confidence, 1e-9)
        assert h.decoded.hand is not None
        own = [(h.decoded.hand, min(h.decoded.confidence / flower, 1.0))]
        for hand, p in [*own, *h.decoded.alternatives]:
            shares[hand] = shares.get(hand, 0.0) + float(w) * p
        reader.setdefault(h.decoded.hand, h)
    ranked = sorted((k for k in shares if k in reader), key=lambda k: -shares[k])
    chosen = ranked[0]
    ranked_all = sorted(shares, key=lambda k: -shares[k])
    best = reader[chosen]
    total = sum(shares.values())
    decoded = replace(
        best.decoded,
        confidence=shares[chosen] / total * best.decoded.flower_confidence,
        alternatives=[(k, shares[k] / total) for k in ranked_all if k != chosen][:3],
        notes=list(best.decoded.notes),
    )
    found = _noted(best, laid_in_win)
    return SearchResult(
        best.tiles,
        found,
        decoded,
        tried,
        tuple((h, float(w)) for h, w in zip(legal, weights, strict=True)),
    )


def _noted(best: Hypothesis, laid_in_win: npt.NDArray[np.bool_]) -> Layout:
    """The chosen hypothesis's layout with a note of each move that changed the hand: a
    detection the first layout held in the win left out, a claim's crosswise flag taken as
    false."""
    found = best.found
    for move in best.moves:
        if move.kind is MoveKind.DROP and laid_in_win[list(move.tiles)].any():
            found = found.noted(Note(NoteCode.FAINT_TILE_LEFT_OUT, DROPPED_FROM_HAND))
        elif move.kind is MoveKind.TURN_UPRIGHT:
            at = tuple(int(k) for k in np.flatnonzero(np.isin(best.kept, move.tiles)))
            found = found.noted(Note(NoteCode.FALSE_CLAIM, TURNED_UPRIGHT, at))
    return found
