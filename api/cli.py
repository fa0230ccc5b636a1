"""The `mjlens` command line: a thin dispatcher over one module per subcommand.

Every failure reaches the user as one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

# Defined apart so that `python -m api.cli` catches the very class the commands raise.
from api.errors import CliError

if TYPE_CHECKING:
    import argparse

__all__ = ["COMMANDS", "CliError", "main"]

# name -> (module, one-line help). Each module lives in api/commands/.
COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("api.commands.score", "score a hand given in notation or as Hand JSON lines"),
    "fans": ("api.commands.fans", "list a rule set's own fan table, its unit and its cap"),
    "drawn": ("api.commands.drawn", "settle a drawn Sichuan hand (查花猪, 查大叫)"),
    "recognize": ("api.commands.recognize", "read a photo of a declared win and score it"),
    "classify": ("api.commands.classify", "label single-tile crops"),
    "sets": ("api.commands.sets", "teach mjlens a tile set; list, show, export and remove sets"),
    "serve": ("api.commands.serve", "start the HTTP API and the phone page"),
    "synth": ("api.commands.synth", "render labeled synthetic photos of declared wins"),
    "label": (
        "api.commands.label",
        "pre-label a folder of photos as COCO, YOLO and Label Studio files",
    ),
    "import-labels": (
        "api.commands.import_labels",
        "turn corrected COCO or Label Studio exports into a training set",
    ),
    "train": (
        "api.commands.train",
        "train a model: detector, classifier, sideways flag or corner refiner",
    ),
    "eval": ("api.commands.eval", "measure the shipped models"),
}


def _load(name: str) -> ModuleType | None:
    module_name, _ = COMMANDS[name]
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None  # subcommand not built yet in this checkout
        raise


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    import argparse  # here: the stream's start-up never builds a parser (stream_request)

    parser = argparse.ArgumentParser(prog="mjlens", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, (_, help_text) in COMMANDS.items():
        # Import only the module the user asked for; list the others by name.
        if only is not None and name != only:
            sub.add_parser(name, help=help_text)
            continue
        module = _load(name)
        if module is None:
            continue
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(command_parser)
        command_parser.set_defaults(_module=module)
    return parser


def command_first(args_list: Sequence[str]) -> argparse.Namespace | None:
    """`mjlens COMMAND ...` read by that command's parser alone, as the full parser's
    subparser reads it (the same prog, help and errors), without building the other
    commands' parsers: a stream's start-up. None where the command is not first or anything
    is left over, for the full parser to judge."""
    if not args_list or args_list[0] not in COMMANDS:
        return None
    name = args_list[0]
    module = _load(name)
    if module is None:
        return None
    _, help_text = COMMANDS[name]
    import argparse

    parser = argparse.ArgumentParser(prog=f"mjlens {name}", description=help_text)
    module.add_arguments(parser)
    args, rest = parser.parse_known_args(args_list[1:])
    if rest:
        return None
    args.command = name
    args._module = module
    return args


def stream_request(args_list: Sequence[str]) -> tuple[str | None] | None:
    """`(ruleset,)` when the arguments are exactly `score --jsonl`, with `--ruleset NAME` or
    `--ruleset=NAME` of a known rule set before or after it, or nothing else: what argparse
    reads as the stream and its rule set (tests/scoring/test_stream_request.py). Read here
    without argparse, which with its parsers is a tenth of a stream's start-up; None for any
    other arguments, which argparse reads."""
    if len(args_list) > 4 or args_list[:1] != ["score"] or args_list.count("--jsonl") != 1:
        return None
    rest = list(args_list[1:])
    if rest[0] == "--jsonl":  # first or last, never between an option and its value
        rest = rest[1:]
    elif rest[-1] == "--jsonl":
        rest = rest[:-1]
    else:
        return None
    if not rest:
        return (None,)
    from scoring.rulesets import RULESETS

    if len(rest) == 2 and rest[0] == "--ruleset" and rest[1] in RULESETS:
        return (rest[1],)
    if len(rest) == 1 and rest[0].startswith("--ruleset=") and rest[0][10:] in RULESETS:
        return (rest[0][10:],)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    streamed = stream_request(args_list)
    args: argparse.Namespace | None = None
    module: ModuleType | None
    if streamed is not None:
        command, module = "score", importlib.import_module("api.commands.score")
    else:
        args = command_first(args_list)
        if args is None:
            chosen = next((a for a in args_list if a in COMMANDS), None)
            args = build_parser(only=chosen).parse_args(args_list)
        command, module = args.command, getattr(args, "_module", None)
        if module is None:
            print(f"mjlens: error: '{command}' is not available in this build", file=sys.stderr)
            return 2
    try:
        if streamed is not None:
            return int(module.run_stream(streamed[0]))
        return int(module.run(args))
    except CliError as exc:
        print(f"mjlens: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mjlens: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except ModuleNotFoundError as exc:  # an optional extra not installed: name its pip command
        from api.fixes import missing_module  # only a failure needs it: kept out of start-up

        hint = missing_module(exc, f"mjlens {command}")
        print(f"mjlens: error: {hint or f'{type(exc).__name__}: {exc}'}", file=sys.stderr)
        return 2 if hint else 1
    except Exception as exc:  # the promise: one line, never a traceback
        print(f"mjlens: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
