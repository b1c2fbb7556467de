"""Labelled cases for the detectors: the development sets, the frozen held-out splits and public corpora."""
