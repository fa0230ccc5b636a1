"""A reading as the Score shows it: each counted fan with its points, its count and the sets
and tiles it uses written out, and the fans not counted, merged by fan, cause and rule.

Part of the compiled core (compiled.py): the same uses and sets recur from hand to hand, so
their text is remembered rather than written again.
"""

from __future__ import annotations

from typing import Final

from . import fan_ids as F
from .deal import set_text
from .reading import Reading
from .shapes import PAIR, Set
from .tally import Use
from .tile_index import CODES, KNITTED_STRAIGHTS

FanLine = tuple[int, int, int, tuple[str, ...]]  # fan, points, count, what it uses
ExclusionLine = tuple[int, int | None, str, int]  # fan, because of, rule, count
REPEATED: Final = frozenset({F.PURE_DOUBLE_CHOW, F.QUADRUPLE_CHOW})  # their chows listed each time
MOST_REMEMBERED: Final = 1 << 16  # texts of uses kept; a long stream of odd hands clears them


def fan_lines(reading: Reading, points: list[int]) -> tuple[list[FanLine], int]:
    """Each counted fan in id order with its points, count and uses as text; and the total."""
    whole = whole_hand_text(reading)
    counts, uses = reading.tally.counts, reading.tally.uses
    lines: list[FanLine] = []
    total = 0
    for fan in sorted(counts):
        count = counts[fan]
        worth = points[fan]
        fan_uses = uses.get(fan)
        texts = use_texts(fan in REPEATED, fan_uses, whole) if fan_uses else whole
        lines.append((fan, worth, count, texts))
        total += worth * count
    return lines, total


def exclusion_lines(reading: Reading) -> list[ExclusionLine]:
    """The fans not counted, one line per fan, cause and rule, in the order first dropped."""
    dropped = reading.tally.dropped
    if len(dropped) <= 1:  # nothing to merge (most hands)
        return [(int(d.id), None if d.because_of is None else int(d.because_of), d.rule, d.count)
                for d in dropped]  # fmt: skip
    merged: dict[tuple[int, int | None, str], int] = {}
    for d in dropped:
        key = (int(d.id), None if d.because_of is None else int(d.because_of), d.rule)
        merged[key] = merged.get(key, 0) + d.count
    return [(fan, by, rule, n) for (fan, by, rule), n in merged.items()]


def use_texts(repeat: bool, uses: list[Use], whole: tuple[str, ...]) -> tuple[str, ...]:
    """The sets and tiles a counted fan uses, each once (twice for identical chows)."""
    if len(uses) == 1 and uses[0]:
        return described(uses[0], repeat)
    seen: list[str] = []
    for use in uses:
        for text in described(use, True) if use else whole:
            if repeat or text not in seen:
                seen.append(text)
    return tuple(seen)


def described(use: tuple[object, ...], repeat: bool) -> tuple[str, ...]:
    """One use as text (once each unless `repeat`), remembered by what its text depends on:
    each set's kind and tile (not whether it was melded), each tile, each knitted straight."""
    key = use_key(use, repeat)
    found = _DESCRIBED.get(key)
    if found is None:
        if len(_DESCRIBED) >= MOST_REMEMBERED:
            _DESCRIBED.clear()
        texts: list[str] = []
        for text in _describe(use):
            if repeat or text not in texts:
                texts.append(text)
        found = _DESCRIBED[key] = tuple(texts)
    return found


def use_key(use: tuple[object, ...], repeat: bool) -> object:
    """A use packed eight bits a part (a tile, a set by kind and tile, a knitted straight) in
    an int; the use itself where a part is none of these or there are too many."""
    if len(use) > 6:
        return (use, repeat)
    key = 1
    for part in use:
        if isinstance(part, int) and 0 <= part < 34:
            code = part + 1  # 1-34
        elif isinstance(part, tuple) and len(part) == 3 and isinstance(part[2], bool):
            kind, t = part[0], part[1]
            if not (isinstance(kind, int) and isinstance(t, int)):
                return (use, repeat)
            if not (1 <= kind <= 4 and 0 <= t < 34):
                return (use, repeat)
            code = 35 + (kind - 1) * 34 + t  # 35-170 for the four kinds of set
        elif isinstance(part, tuple) and part in KNITTED_STRAIGHTS:
            code = 171 + KNITTED_STRAIGHTS.index(part)  # 171-176
        else:
            return (use, repeat)
        key = key << 8 | code
    return key << 1 | repeat


_DESCRIBED: Final[dict[object, tuple[str, ...]]] = {}


def whole_hand_text(reading: Reading) -> tuple[str, ...]:
    """Every set of the reading; seven pairs as pairs; the other special shapes as tiles."""
    if reading.sets is not None:
        return tuple([set_text(s) for s in reading.sets])
    if reading.tally.has(F.SEVEN_PAIRS) or reading.tally.has(F.SEVEN_SHIFTED_PAIRS):
        return tuple([set_text((PAIR, t, False)) for t in reading.tiles[::2]])
    return tuple([CODES[t] for t in reading.tiles])


def _describe(use: tuple[object, ...]) -> list[str]:
    out: list[str] = []
    for part in use:
        if isinstance(part, int):
            out.append(CODES[part])
        elif isinstance(part, tuple) and len(part) == 3 and isinstance(part[2], bool):
            one: Set = (int(part[0]), int(part[1]), bool(part[2]))
            out.append(set_text(one))
        elif isinstance(part, tuple) and part in KNITTED_STRAIGHTS:
            out.append(_knitted_text(part))
    return out


def _knitted_text(seq: tuple[object, ...]) -> str:
    groups: dict[str, str] = {}
    for t in seq:
        if isinstance(t, int):
            code = CODES[t]
            groups[code[1]] = groups.get(code[1], "") + code[0]
    return "".join(f"{ranks}{suit}" for suit, ranks in sorted(groups.items(), key=lambda kv: kv[1]))
