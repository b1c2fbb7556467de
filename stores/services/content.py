"""Facts derived from a memory's text."""

from __future__ import annotations

import hashlib

FIRST_LINE_MAX = 300


def sha256_hex(content: str) -> str:
    """SHA-256 of the exact UTF-8 bytes, no normalisation (the sync worker's baseline depends on it)."""
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def first_line_of(content: str) -> str:
    """The first non-blank line, trimmed, kept for the run index."""
    for line in content.splitlines():
        if line.strip():
            return line.strip()[:FIRST_LINE_MAX]
    return ""
