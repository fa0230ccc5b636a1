"""From a photo to tiles and a hand: load, detect, classify, layout, decode.

Needs only numpy, opencv and onnxruntime at inference time.
"""

import os

# onnxruntime's Linux and macOS builds keep a device id and a queue of usage events under
# ~/.cache/Microsoft and upload them. Off unless the user opts in with
# ORT_DISABLE_TELEMETRY=0; it must be set before onnxruntime is first imported.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
