"""The HTTP API, the phone page and the `mjlens` command line: wiring only."""
