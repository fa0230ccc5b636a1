"""Tiles, hands and their scores under MCR and the other rule sets. Standard library only."""

from .fan_table import FAN_TABLE, Fan, FanRow
from .hand import Hand, HandError, Meld
from .notation import parse_notation
from .parse import parse_hand
from .score import RULESETS, Exclusion, FanScore, Score, score

__all__ = [
    "FAN_TABLE",
    "RULESETS",
    "Exclusion",
    "Fan",
    "FanRow",
    "FanScore",
    "Hand",
    "HandError",
    "Meld",
    "Score",
    "parse_hand",
    "parse_notation",
    "score",
]
