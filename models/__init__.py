"""Shipped ONNX weights, their model cards, and training entry points (torch at training only)."""
