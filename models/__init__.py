"""Shipped ONNX weights, their model cards, and the training entry points (torch at training time only)."""
