"""The page's Chinese font (api/static/fonts/page-cjk.woff, scripts/make_page_font.py) holds
every Chinese character the page can show: its own words and the fan names and units the API
sends for every rule set. A word added without running the script fails here, before a
phone without a Chinese font shows it as an empty box."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from fontTools.ttLib import TTFont

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"
FONT = STATIC / "fonts" / "page-cjk.woff"
# The @font-face's unicode-range: anything CJK the page shows falls in it.
CJK = re.compile(
    r"[\u2e80-\u2fff\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]"
)
REGENERATE = "run python scripts/make_page_font.py"


@pytest.fixture(scope="module")
def drawn() -> set[str]:
    font = TTFont(str(FONT))
    return {chr(code) for code in font.getBestCmap()}


def _missing(text: str, drawn: set[str]) -> list[str]:
    return sorted(set(CJK.findall(text)) - drawn)


@pytest.mark.parametrize("name", [*sorted(p.name for p in STATIC.glob("*.js")), "index.html"])
def test_the_pages_own_words_are_in_the_font(name: str, drawn: set[str]) -> None:
    missing = _missing((STATIC / name).read_text(encoding="utf-8"), drawn)
    assert not missing, f"{name}: {''.join(missing)} not in {FONT.name}: {REGENERATE}"


def test_every_rule_sets_fan_names_are_in_the_font(client: TestClient, drawn: set[str]) -> None:
    from scoring import RULESETS

    for ruleset in RULESETS:
        answer = client.get("/v1/fans", params={"ruleset": ruleset})
        assert answer.status_code == 200, ruleset
        table = answer.json()
        shown = [table["unit_zh"]]  # the page shows names; notes and descriptions it does not
        for fan in table["fans"]:
            shown += [fan["name_zh"], *fan["excludes_names"]]
        missing = _missing(repr(shown), drawn)
        assert not missing, f"{ruleset}: {''.join(missing)}: {REGENERATE}"


def test_the_names_in_scores_are_in_the_font(drawn: set[str]) -> None:
    """The Score JSON's fans and exclusions, over generated wins under every rule set."""
    from scoring import RULESETS, score
    from scoring.generate import generate_hands

    hands = list(generate_hands(seed=7, n=60))
    said = 0
    for ruleset in RULESETS:
        for hand in hands:
            answer = repr(score(hand, ruleset).to_json())
            said += len(CJK.findall(answer))
            missing = _missing(answer, drawn)
            assert not missing, f"{ruleset}: {''.join(missing)}: {REGENERATE}"
    assert said > 1000  # the scores do carry Chinese names: the check is not empty


def test_the_font_is_small_renamed_licensed_and_kept_offline(drawn: set[str]) -> None:
    assert FONT.stat().st_size < 200_000
    assert len(drawn) < 1500  # a subset, not the whole font
    names = TTFont(str(FONT))["name"]
    family = names.getDebugName(1)
    assert family == "mjlens CJK" and "Noto" not in family and "Source" not in family
    assert "Open Font License" in (names.getDebugName(13) or "")
    assert "SIL OPEN FONT LICENSE Version 1.1" in (FONT.parent / "OFL.txt").read_text("utf-8")
    style = (STATIC / "style.css").read_text(encoding="utf-8")
    assert 'url("fonts/page-cjk.woff")' in style and '"mjlens CJK", sans-serif' in style
    assert '"static/fonts/page-cjk.woff"' in (STATIC / "sw.js").read_text(encoding="utf-8")
