"""`mjlens serve`: starts the page and API on the given port; a busy port is one clear line."""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from api.cli import CliError
from api.commands import serve

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_defaults_are_loopback_8000() -> None:
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    args = parser.parse_args([])
    assert (args.host, args.port) == ("127.0.0.1", 8000)


def test_busy_port_is_a_cli_error() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        args = argparse.Namespace(host="127.0.0.1", port=port, log_level="warning")
        with pytest.raises(CliError, match="cannot listen"):
            serve.run(args)


def test_serve_answers_healthz_and_the_page() -> None:
    port = _free_port()
    command = [
        sys.executable,
        "-m",
        "api.cli",
        "serve",
        "--port",
        str(port),
        "--log-level",
        "error",
    ]
    process = subprocess.Popen(command, cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    assert r.status == 200
                    break
            except OSError:
                assert process.poll() is None, "mjlens serve exited"
                assert time.monotonic() < deadline, "mjlens serve did not answer in 30 s"
                time.sleep(0.2)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
            assert b'capture="environment"' in page.read()
    finally:
        process.terminate()
        process.wait(10)
