"""The shipped weights, package data read through `vision.registry`; each model card beside
its file."""
