"""Facts derived from a memory's text."""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings

FIRST_LINE_MAX = 300


def sha256_hex(content: str) -> str:
    """SHA-256 of the exact UTF-8 bytes, no normalisation (the sync worker's baseline depends on it)."""
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def keyed_fingerprint(purpose: str, sha_hex: str) -> str:
    """A keyed, one-way fingerprint of a text's SHA-256, for a rule that must recognise the text again.

    An unkeyed hash of a short or guessable text (a password, a name) confirms a guess; this one cannot
    be computed without a key derived from SECRET_KEY. It takes the text's hex SHA-256 rather than the
    text, so a stored hash can be turned into its fingerprint without the text (a redaction, a migration).
    ``purpose`` separates the fingerprints of different rules.
    """
    if not sha_hex:
        return ""
    key = hashlib.sha256(f"memory-console/{purpose}/".encode() + settings.SECRET_KEY.encode("utf-8")).digest()
    return hmac.new(key, sha_hex.encode("ascii"), hashlib.sha256).hexdigest()


def first_line_of(content: str) -> str:
    """The first non-blank line, trimmed, kept for the run index."""
    for line in content.splitlines():
        if line.strip():
            return line.strip()[:FIRST_LINE_MAX]
    return ""
