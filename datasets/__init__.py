"""Synthetic photos of declared wins, tile-art sources, and label formats (COCO, YOLO)."""
