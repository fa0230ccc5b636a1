"""Each rule set's own fan table, unit and cap: through `GET /v1/fans?ruleset=R`,
`mjlens fans --ruleset R`, and the "not counted" lines and totals of `mjlens score`."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.cli import main
from scoring import RULESETS
from scoring.fan_tables import fan_table

UNITS = {"mcr": "points", "mcr-mil": "points", "sichuan": "fan", "sichuan-ordinary": "points",
         "shanghai": "points", "beijing": "fan"}  # fmt: skip


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_rule_set_lists_its_own_table(client: TestClient, ruleset: str) -> None:
    answer = client.get("/v1/fans", params={"ruleset": ruleset})
    assert answer.status_code == 200
    table = answer.json()
    assert table["ruleset"] == ruleset and table["unit"] == UNITS[ruleset]
    ids = {row["id"] for row in table["fans"]}
    for row in table["fans"]:  # exclusions name rows of the same table
        assert set(row["excludes"]) <= ids
        assert [e["name_en"] for e in row["excludes_names"]] == [
            next(r["name_en"] for r in table["fans"] if r["id"] == i) for i in row["excludes"]
        ]


def test_sichuan_table_is_not_the_mcr_table(client: TestClient) -> None:
    # GET /v1/fans?ruleset=sichuan once answered the 81 MCR fans
    table = client.get("/v1/fans", params={"ruleset": "sichuan"}).json()
    assert len(table["fans"]) < 81 and "清对" in {r["name_zh"] for r in table["fans"]}
    assert table["cap"] == 3
    assert client.get("/v1/fans").json()["ruleset"] == "mcr"
    assert len(client.get("/v1/fans").json()["fans"]) == 81


def test_an_unknown_rule_set_is_refused(client: TestClient) -> None:
    answer = client.get("/v1/fans", params={"ruleset": "riichi"})
    assert answer.status_code == 422
    assert answer.headers["content-type"].startswith("application/problem+json")


def test_fans_command(capsys: Any) -> None:
    assert main(["fans", "--ruleset", "shanghai"]) == 0
    text = capsys.readouterr().out
    assert "points (分)" in text and "勒子" in text
    assert main(["fans", "--ruleset", "beijing", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["unit"] == "fan" and table["unit_zh"] == "番"


def test_sichuan_not_counted_lines_name_sichuan_rows(capsys: Any) -> None:
    # a Sichuan 清对 printed "not counted: All Green" (MCR's fan 3) for its 清一色 (id 3)
    assert main(["score", "--ruleset", "sichuan", "11133355577799s"]) == 0
    text = capsys.readouterr().out
    assert "All Green" not in text
    assert "not counted: Full Flush (because of Full Flush All Pungs; highest-only)" in text
    assert "3 fan / 3 番" in text


def test_the_cap_is_shown(capsys: Any) -> None:
    # 清对 3 + 杠上花 1 + 根 1: "the maximum is 3 times"
    argv = ["score", "--ruleset", "sichuan", "[1111s]33355577799s", "--self-drawn",
            "--kong-replacement"]  # fmt: skip
    assert main(argv) == 0
    assert "5 番, capped at 3" in capsys.readouterr().out


def test_a_shanghai_ten_is_ten_points(capsys: Any) -> None:
    # "one unit label serves every rule set (a Shanghai 10 shows as '10 番')"
    assert main(["score", "--ruleset", "shanghai", "[999p,2]123456789p11p"]) == 0
    text = capsys.readouterr().out
    assert "10 points (1 勒子)" in text and "番" not in text


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_score_json_carries_the_unit(ruleset: str, capsys: Any) -> None:
    main(["score", "--ruleset", ruleset, "--json", "[555m,1]123s456s789s11s"])
    out = json.loads(capsys.readouterr().out)
    assert out["unit"] == UNITS[ruleset] == fan_table(ruleset).unit.value


def test_a_capped_total_says_what_it_was_cut_from(capsys: Any) -> None:
    # Shanghai: "If it is greater than the cap value, it will be calculated according to the
    # cap value", then 开宝 doubles: 2 + 11 flowers = 13, capped at 10, doubled to 20
    argv = ["score", "--ruleset", "shanghai", "--json", "[CCCC][111m,1]678p45s99s3s",
            "--flowers", "7", "--kaibao"]  # fmt: skip
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 20 and out["capped_from"] == 13
    argv = ["score", "--ruleset", "sichuan", "--json", "[1111s]33355577799s", "--self-drawn",
            "--kong-replacement"]  # fmt: skip
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 3 and out["capped_from"] == 5
    assert main(["score", "--json", "[555m,1]123s456s789s11s"]) == 0
    assert "capped_from" not in json.loads(capsys.readouterr().out)  # MCR has no cap
