"""Labeling photo folders: the recognizer's pre-labels written as COCO, YOLO and Label Studio
files, and people's corrections read back into a training set."""
