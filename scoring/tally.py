"""A running count of fans for one reading of a hand, with what each uses and what was dropped.

The scorer adds every fan the hand shows, then the principles take some away again; each
removal is kept (which fan, because of which, under which principle) for the explanation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

# What a fan uses: sets as (kind, tile, melded), or plain tile numbers; None = the whole hand.
Use = tuple[object, ...] | None

# 不重复原则: a fan implied by a bigger one is not counted again
NON_REPEAT: Final = "non-repeat"
# 不拆移原则: sets in one fan are not split to form another
NON_SEPARATION: Final = "non-separation"
# 不得相同原则: a set is not used twice for the same fan
NON_IDENTICAL: Final = "non-identical"
# 套算一次原则: a set joins at most one combination per other set
ACCOUNT_ONCE: Final = "account-once"
# 就高不就低: one reading of a tile or hand, the highest
HIGH_VERSUS_LOW: Final = "high-versus-low"


class Dropped:
    """A fan shown but not counted: which, because of which, under which principle."""

    # Plain classes with their own __init__: mypyc compiles these (a dataclass's generated
    # __init__ stays interpreted), and a hand makes several.
    def __init__(self, id: int, because_of: int | None, rule: str, count: int) -> None:
        self.id = id
        self.because_of = because_of
        self.rule = rule
        self.count = count


class Tally:
    def __init__(self) -> None:
        self.counts: dict[int, int] = {}
        self.uses: dict[int, list[Use]] = {}
        self.dropped: list[Dropped] = []

    def add(self, fan: int, use: Use = None, n: int = 1) -> None:
        counts = self.counts
        counts[fan] = counts.get(fan, 0) + n
        if use is not None:  # no use recorded: the fan is about the whole hand
            if fan in self.uses:
                self.uses[fan].append(use)
            else:
                self.uses[fan] = [use]

    def has(self, fan: int) -> bool:
        return self.counts.get(fan, 0) > 0

    def drop(self, fan: int, because_of: int | None, rule: str, n: int | None = None) -> None:
        """Take away `n` (default all) of `fan`; a fan not present is ignored."""
        have = self.counts.get(fan, 0)
        if have <= 0:
            return
        take = have if n is None else min(n, have)
        self.counts[fan] = have - take
        if self.counts[fan] == 0:
            del self.counts[fan]
            self.uses.pop(fan, None)
        elif because_of is not None:
            self._forget_uses(fan, because_of, take)
        self.dropped.append(Dropped(fan, because_of, rule, take))

    def _forget_uses(self, fan: int, because_of: int, n: int) -> None:
        """After a partial drop, forget the uses the excluding fan shares (else the last)."""
        uses = self.uses.get(fan, [])
        theirs = {part for use in self.uses.get(because_of, []) if use for part in use}
        for _ in range(n):
            shared = [i for i, use in enumerate(uses) if use and theirs & set(use)]
            if shared:
                del uses[shared[0]]
            elif uses:
                uses.pop()

    def dropped_inner(self, fan: int, because_of: int | None, rule: str) -> None:
        """Record a fan the hand shows that was never counted, e.g. inside a bigger one."""
        self.dropped.append(Dropped(fan, because_of, rule, 1))

    def total(self, points: Sequence[int]) -> int:
        """The points counted, `points` giving each fan's by its id."""
        total = 0
        for fan, n in self.counts.items():
            total += points[fan] * n
        return total
