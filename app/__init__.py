"""Rider Operations Service."""
