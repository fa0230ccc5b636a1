"""One module per `mjlens` subcommand, each exposing `add_arguments(parser)` and `run(args) -> int`.

Subcommands are imported lazily so that `mjlens score` never pays for onnxruntime or torch.
"""
