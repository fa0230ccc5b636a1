"""The page's words (api/static/words.js): English and Chinese for the same keys, and words
for every note code the recognizer can send (vision.notes.NoteCode), so no note reaches a
Chinese reader in English for want of a translation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vision.notes import NoteCode

WORDS = Path(__file__).resolve().parents[2] / "api" / "static" / "words.js"
# A key starts a line or follows a value's comma, and its value is a string.
KEY = re.compile(r'(?:^|,)\s*(?:"([^"]+)"|([A-Za-z_]\w*))\s*:\s*"', re.M)


def _keys(language: str) -> set[str]:
    text = WORDS.read_text(encoding="utf-8")
    start = text.index(f"\n  {language}: {{")
    body = text[start : text.index("\n  },", start)]
    return {m.group(1) or m.group(2) for m in KEY.finditer(body)}


def test_both_languages_have_the_same_words() -> None:
    assert _keys("en") == _keys("zh")


@pytest.mark.parametrize("code", [c.value for c in NoteCode])
def test_every_note_code_has_words(code: str) -> None:
    assert f"note_{code}" in _keys("en")
    assert f"note_{code}" in _keys("zh")
