"""Benchmarks and labelled sets for the console's detectors (run with the project's Python)."""
