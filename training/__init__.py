"""Training: the trainers of the shipped models, their nets, data pipelines and tools (torch
at training time only). Inference never imports this package; trainers export to
`vision/weights/`, where `vision.registry` finds the shipped files."""
