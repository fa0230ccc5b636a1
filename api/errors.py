"""Errors the command line shows to a person as one line."""


class CliError(Exception):
    """A user-facing failure: printed as one line, exit status 2."""
