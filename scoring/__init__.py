"""Tiles, hands and their scores under MCR and the other rule sets. Standard library only."""
