"""The compiled core (scoring/compiled.py): used only while current, and answering exactly as
the pure-Python scorer, its reference, does."""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import compiled, fan_ids, json_text
from scoring.fan_table import Fan
from scoring.generate import generate_hands
from scoring.waiting_hands import near_hands, waiting_hands

ROOT = Path(__file__).resolve().parents[2]
CLI = "import sys; from api.cli import main; sys.exit(main())"


def _env(pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != compiled.OFF_SWITCH}
    if pure:
        env[compiled.OFF_SWITCH] = "1"
    return env


def _python(code: str, pure: bool, stdin: str = "", *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(pure),
        check=True,
        timeout=600,
    )
    return done.stdout


def test_fan_ids_are_the_fan_table_ids() -> None:
    ids = {name: value for name, value in vars(fan_ids).items() if name.isupper()}
    assert ids == {fan.name: fan.value for fan in Fan}


def test_stream_text_is_the_json_modules_text() -> None:
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    values: list[object] = [
        {"name_zh": "清一色", "sets": ["888p", "77p"], "n": None, "ok": True, "no": False},
        {"error": 'a "quoted"\\ line\nwith \t controls \x01 and é', "ratio": 1.5, "big": 10**30},
        [1, -2, [], {}, "", (3, 4)],
        {1: "int key", "x": float("inf")},
    ]
    for value in values:
        assert json_text.dumps(value) == encode(value)


def test_manifest_covers_what_the_modules_import() -> None:
    manifest = compiled.manifest_for()
    sources = manifest["sources"]
    assert isinstance(sources, dict)
    # hand.py is not compiled, but the compiled modules read its classes: it counts too.
    assert set(compiled.MODULES) | {"hand"} <= set(sources)


def test_a_changed_source_makes_the_build_stale(tmp_path: Path) -> None:
    manifest = compiled.manifest_for()
    assert isinstance(manifest["sources"], dict)
    sources = {**manifest["sources"], "mcr": "0" * 64}
    (tmp_path / compiled.MANIFEST).write_text(json.dumps({**manifest, "sources": sources}))
    assert compiled.stale_reason(tmp_path) == "scoring/mcr.py changed since the build"


def _copied_package(tmp_path: Path) -> tuple[Path, Path]:
    """The package's sources copied to a folder of their own, with a manifest of them."""
    root, build = tmp_path / "src", tmp_path / "build"
    shutil.copytree(Path(compiled.__file__).parent, root, ignore=shutil.ignore_patterns("_*"))
    build.mkdir()
    (build / compiled.MANIFEST).write_text(json.dumps(compiled.manifest_for(root)))
    return root, build


def test_an_edited_source_is_hashed_again_and_found_changed(tmp_path: Path) -> None:
    root, build = _copied_package(tmp_path)
    assert compiled.stale_reason(build, root).endswith("missing from " + str(build))
    mcr = root / "mcr.py"
    stat = mcr.stat()
    text = mcr.read_text(encoding="utf-8")
    mcr.write_text(text.replace("def ", "def  ", 1), encoding="utf-8")
    os.utime(mcr, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    assert compiled.stale_reason(build, root) == "scoring/mcr.py changed since the build"


def test_a_touched_but_unchanged_source_still_matches(tmp_path: Path) -> None:
    root, build = _copied_package(tmp_path)
    os.utime(root / "mcr.py", ns=(1, 1))
    assert compiled.stale_reason(build, root).endswith("missing from " + str(build))


def test_a_build_for_another_interpreter_is_not_used(tmp_path: Path) -> None:
    manifest = {**compiled.manifest_for(), "cache_tag": "cpython-00"}
    (tmp_path / compiled.MANIFEST).write_text(json.dumps(manifest))
    reason = compiled.stale_reason(tmp_path)
    assert reason is not None and reason.startswith("built for cpython-00")


def test_a_current_manifest_without_its_modules_is_not_used(tmp_path: Path) -> None:
    (tmp_path / compiled.MANIFEST).write_text(json.dumps(compiled.manifest_for()))
    reason = compiled.stale_reason(tmp_path)
    assert reason is not None and reason.endswith(f"missing from {tmp_path}")


def test_a_build_that_does_not_load_leaves_python(tmp_path: Path) -> None:
    """Current hashes but a library the loader refuses: every module stays Python."""
    (tmp_path / compiled.MANIFEST).write_text(json.dumps(compiled.manifest_for()))
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in (*compiled.MODULES, compiled.GROUP + "__mypyc"):
        (tmp_path / f"{name}{suffix}").write_bytes(b"not a shared library")
    assert compiled.stale_reason(tmp_path) is None
    source = str(ROOT / "scoring" / "compiled.py")
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('c', {source!r})\n"
        "c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)\n"
        f"print(c.use_compiled(c.Path({str(tmp_path)!r})), c.reason)\n"
        "print(sum(isinstance(f, c._Finder) for f in sys.meta_path))\n"
    )
    used, finders = _python(code, pure=False).splitlines()
    assert used.startswith("False the build does not load")
    assert finders == "0"


def test_no_build_no_compiled_core(tmp_path: Path) -> None:
    assert compiled.stale_reason(tmp_path) == "not built (no manifest)"


def test_the_off_switch_keeps_the_pure_python_modules() -> None:
    code = "import scoring.compiled as c, scoring.mcr as m; print(c.in_use(), c.reason, m.__file__)"
    in_use, *reason, path = _python(code, pure=True).split()
    assert in_use == "False" and " ".join(reason) == f"{compiled.OFF_SWITCH} is set"
    assert path.endswith("mcr.py")


def _lines() -> str:
    hands = [
        *generate_hands(11, 3000),
        *waiting_hands(11, 150),
        *near_hands(11, 150),
        {"concealed": ["1m"] * 13, "winning_tile": "1m"},
        {"melds": 3},
    ]
    return "".join(json.dumps(hand) + "\n" for hand in hands) + "not json\n\n"


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["mcr", "mcr-mil"])
def test_compiled_and_pure_python_give_the_same_score_json(ruleset: str) -> None:
    why = compiled.stale_reason()
    if why is not None or compiled.switched_off():
        pytest.skip(f"compiled core not in use here: {why or 'switched off'} (pip install -e .)")
    check = "import scoring.compiled as c; print(c.in_use())"
    assert _python(check, pure=False).strip() == "True"
    lines = _lines()
    args = ("score", "--jsonl", "--ruleset", ruleset)
    pure = _python(CLI, True, lines, *args)
    fast = _python(CLI, False, lines, *args)
    assert pure.count("\n") == lines.count("\n")
    assert fast == pure
