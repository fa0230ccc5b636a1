"""The command line's promise: a one-line error and a non-zero exit, never a traceback."""

import subprocess
import sys


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
