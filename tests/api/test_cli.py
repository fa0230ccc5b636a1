"""The command line's promise: a one-line error and a non-zero exit, never a traceback."""

import os
import subprocess
import sys
from pathlib import Path


def test_cli_error_is_one_line_when_run_as_module() -> None:
    # `python -m api.cli` once imported CliError twice and printed "CliError: ..." with exit 1.
    result = subprocess.run(
        [sys.executable, "-m", "api.cli", "score", "123m"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert result.stderr.startswith("mjlens: error: invalid hand")
    assert len(result.stderr.strip().splitlines()) == 1


def test_unknown_command_is_refused() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "api.cli", "fly"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_train_runs_the_trainer_as_a_process_of_its_own() -> None:
    # The API imports no training code: `mjlens train detector` is `python -m
    # training.train_detector` with the options as given.
    result = subprocess.run(
        [sys.executable, "-m", "api.cli", "train", "detector", "--help"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0
    assert "--corner-code" in result.stdout and "--export" in result.stdout


def test_eval_outside_the_repository_says_where_to_run_it(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-m", "api.cli", "eval"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "mjlens: error: mjlens eval runs from the repository root (needs benchmarks/)"
    )
