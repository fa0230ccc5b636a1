"""`mjlens serve`: the HTTP API and the phone page on one uvicorn process.

One process on purpose: it loads the models once and bounds its own recognizer concurrency
(api.limits); run several behind a proxy to use more cores. The HTTP layer is uvicorn's h11
protocol as api.http11 extends it: malformed requests answered as problems, and a deadline
on each request's head; request bodies are paced by the app (api.bodies).
"""

from __future__ import annotations

import argparse
import logging
import socket

from api.cli import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to bind (default 8000)")
    parser.add_argument(
        "--log-level",
        default="info",
        choices=("critical", "error", "warning", "info", "debug"),
        help="uvicorn log level (default info)",
    )
    # The app factory to serve: the benchmarks and tests serve stand-in recognizers.
    parser.add_argument("--app", default="api.app:create_app", help=argparse.SUPPRESS)


def _check_bindable(host: str, port: int) -> None:
    # uvicorn reports a busy port as a multi-line log; say it in one line instead.
    if not 0 < port < 65536:
        raise CliError(f"--port must be 1-65535, not {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise CliError(f"cannot resolve --host {host!r}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise CliError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from api.http11 import ProblemH11Protocol
    from api.limits import Limits

    _check_bindable(args.host, args.port)
    try:
        limits = Limits.from_env()
    except ValueError as exc:
        raise CliError(str(exc)) from None
    ProblemH11Protocol.header_timeout_s = limits.header_timeout_s
    # Our own messages (models loaded, incidents) in uvicorn's style, at its level.
    logging.basicConfig(
        level=args.log_level.upper(), format="%(levelname)-9s %(name)s: %(message)s"
    )
    print(f"mjlens: serving the page and API on http://{args.host}:{args.port}/", flush=True)
    uvicorn.run(
        getattr(args, "app", "api.app:create_app"),
        factory=True,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        workers=1,
        http=ProblemH11Protocol,
        # Answers are small and computed: nothing gains from keeping idle connections long.
        timeout_keep_alive=5,
    )
    return 0
