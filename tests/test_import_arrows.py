"""Which package may import which, read from every module's imports (those inside functions
too) without running them. Inference (vision, scoring) reaches neither training, datasets
nor benchmarks, so the installed recognizer runs without them; training reaches no
benchmark; benchmarks and tests may import anything."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# package -> the other first-party packages its modules may import
ALLOWED: dict[str, frozenset[str]] = {
    "scoring": frozenset(),
    "vision": frozenset({"scoring"}),
    "datasets": frozenset({"scoring", "vision"}),
    "training": frozenset({"datasets", "vision", "scoring"}),
    # labeling: the recognizer's pre-labels in the formats of datasets, corrections back
    "labels": frozenset({"datasets", "vision", "scoring"}),
    # `mjlens synth` and the bundled sample photo render through datasets; `mjlens train` and
    # `mjlens eval` run the trainers and the benchmark as processes of their own.
    "api": frozenset({"vision", "scoring", "datasets", "labels"}),
}
ANYTHING = ("benchmarks", "tests")
FIRST_PARTY = {*ALLOWED, *ANYTHING}
NOT_CODE = {"build", "dist", "runs", "docs", "scripts"}


def imported(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) for each absolute import in `path`, and each
    `importlib.import_module("...")` of a constant name."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.lineno, node.args[0].value


def wrong_arrows(package: str) -> list[str]:
    wrong = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for line, module in imported(path):
            target = module.split(".")[0]
            if target in FIRST_PARTY and target != package and target not in ALLOWED[package]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return wrong


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_package_imports_only_what_its_arrows_allow(package: str) -> None:
    assert wrong_arrows(package) == []


def test_every_folder_of_code_has_its_arrows() -> None:
    """A new top-level package (or models/ coming back) must say what it may import."""
    folders = {
        path.relative_to(ROOT).parts[0]
        for path in ROOT.glob("*/**/*.py")
        if not any(part.startswith(".") or part.endswith(".egg-info") for part in path.parts)
    }
    assert folders - NOT_CODE <= FIRST_PARTY


def test_the_checker_sees_imports_inside_functions_and_by_name(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import vision.detect\n"
        "def f():\n"
        "    from training.recover import detector\n"
        "    importlib.import_module('benchmarks.vision')\n"
        "from . import sibling\n"
    )
    assert [name for _, name in imported(module)] == [
        "vision.detect",
        "training.recover",
        "benchmarks.vision",
    ]
