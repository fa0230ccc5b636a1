"""What the server hands the page's offline scorer (api/offline_scorer.py), without a browser:
a zip of the scoring sources that, run by a bare Python with nothing else on its path,
answers as `/v1/score` answers; and the Pyodide runtime's files, or a 404 problem naming the
install script where the runtime is not installed. The browser side: test_offline_scoring.py.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.offline_scorer import scoring_zip

HANDS = [
    ("[567m,2][999s,3][EEEE]123pCC", "mcr"),
    ("111m234m567m789p99p", "sichuan"),
    ("[CCC][FFF,1]PP123m78s9s", "shanghai"),
    ("123m456m789m11p23p", "beijing"),  # waiting
]


def test_the_zip_holds_the_python_sources_only(client: TestClient) -> None:
    answer = client.get("/offline/scoring.zip")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(answer.content)).namelist()
    assert "scoring/__init__.py" in names and "score_request.py" in names
    assert "scoring/other/sichuan.py" in names
    assert all(name.endswith(".py") and "_compiled" not in name for name in names), names
    assert scoring_zip.__wrapped__() == answer.content  # same sources, same bytes, same ETag
    assert client.get("/offline/scoring.zip").headers["etag"] == answer.headers["etag"]


def _bare_python(archive: Path, requests: list[tuple[str, str | None]]) -> list[dict[str, object]]:
    """answer() run from the zip alone: -I -S, so nothing of this checkout or its
    site-packages can stand in for what the zip lacks (as in the browser)."""
    program = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(archive)!r})\n"
        "import scoring, score_request\n"
        f"assert scoring.__file__.startswith({str(archive)!r}), scoring.__file__\n"
        "for body, ruleset in json.loads(sys.stdin.read()):\n"
        "    print(score_request.answer(body, ruleset))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", program],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        check=True,
        env={"MJLENS_PURE_PYTHON": "1"},
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_zip_alone_answers_as_the_route_does(client: TestClient, tmp_path: Path) -> None:
    from scoring import read_notation

    archive = tmp_path / "scoring.zip"
    archive.write_bytes(client.get("/offline/scoring.zip").content)
    bodies = [(json.dumps(read_notation(n).to_json()), r) for n, r in HANDS]
    five = read_notation("[567m,2][999s,3][EEEE]123pCC").to_json()
    five["concealed"][0] = "E"  # a fifth East beside the concealed kong: refused, a pointer
    bodies += [
        (json.dumps(five), "mcr"),
        (json.dumps({**five, "ruleset": "sichuan"}), "mcr"),  # the hand names another rule set
        ("[1, 2]", None),  # not a Hand JSON object
        (bodies[0][0], "riichi"),  # no such rule set
    ]
    answers = _bare_python(archive, bodies)
    assert len(answers) == len(bodies)
    for (body, ruleset), offline in zip(bodies, answers, strict=True):
        params = {"ruleset": ruleset} if ruleset else {}
        served = client.post("/v1/score", content=body, params=params)
        assert offline["status"] == served.status_code, (body, ruleset, served.text)
        got, want = offline["body"], served.json()
        if served.status_code == 200:
            assert got == want
        else:
            assert isinstance(got, dict)
            for key in ("type", "title", "status", "detail"):
                assert got[key] == want[key], (key, got, want)
            assert got["pointer"] == want.get("pointer", ""), (got, want)
    assert [a["status"] for a in answers] == [200, 200, 200, 200, 422, 422, 422, 422]
    assert answers[4]["body"]["pointer"]  # type: ignore[index]  # the fifth East, pointed at


def test_the_runtime_is_served_only_where_installed(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MJLENS_PYODIDE_DIR", str(tmp_path))
    missing = client.get("/offline/pyodide/pyodide.asm.wasm")
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"
    assert "scripts/install_pyodide.sh" in missing.json()["detail"]
    (tmp_path / "pyodide.asm.wasm").write_bytes(b"\0asm\1\0\0\0")
    (tmp_path / "package.json").write_text("{}")
    found = client.get("/offline/pyodide/pyodide.asm.wasm")
    assert found.status_code == 200 and found.content == b"\0asm\1\0\0\0"
    assert found.headers["content-type"] == "application/wasm"
    assert client.get("/offline/pyodide/package.json").status_code == 404  # not the runtime's
    assert client.get("/offline/pyodide/..%2Fpyodide.asm.wasm").status_code == 404


def test_the_service_worker_keeps_every_file_the_scorer_needs() -> None:
    from api.offline_scorer import RUNTIME

    worker = (Path(__file__).resolve().parents[2] / "api" / "static" / "sw.js").read_text("utf-8")
    listed = worker[worker.index("const SCORER = [") : worker.index("];", worker.index("SCORER"))]
    kept = set(re.findall(r'"([^"]+)"', listed))
    assert kept == {"offline/scoring.zip"} | {f"offline/pyodide/{name}" for name in RUNTIME}
