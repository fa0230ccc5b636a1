"""From a photo to tiles and a hand: load, detect, classify, layout, decode.

Needs only numpy, opencv and onnxruntime at inference time.
"""
