"""Memory path rules (the reference's section 4.1 and the console's own additions)."""

from __future__ import annotations

import unicodedata

MAX_PATH_BYTES = 1024
MAX_SEGMENTS = 20
FORBIDDEN_CATEGORIES = {"Cc", "Cf"}
FORBIDDEN_CHARS = {"\u2028", "\u2029"}
PROJECT_FOLDERS = ("conventions", "data", "rationale", "solutions", "issues")
AGENTS_FOLDER = "agents"


def _bad_character(text: str) -> str | None:
    for ch in text:
        if ch in FORBIDDEN_CHARS or unicodedata.category(ch) in FORBIDDEN_CATEGORIES or 0xD800 <= ord(ch) <= 0xDFFF:
            return ch
    return None


def path_problem(path: object) -> str | None:
    """Return why ``path`` is not a valid memory path, or None when it is."""
    if not isinstance(path, str):
        return "The path must be a string such as /conventions/naming.md."
    if len(path) < 2 or not path.startswith("/"):
        return f"The path {path!r} must start with / and name a file, such as /conventions/naming.md."
    bad = _bad_character(path)
    if bad is not None:
        return f"The path holds a control, format or separator character (U+{ord(bad):04X}); remove it."
    if len(path.encode("utf-8")) > MAX_PATH_BYTES:
        return f"The path is {len(path.encode('utf-8'))} bytes long; the limit is {MAX_PATH_BYTES} bytes."
    if not unicodedata.is_normalized("NFC", path):
        return "The path is not in Unicode NFC form; send it normalised (NFC)."
    segments = path[1:].split("/")
    if len(segments) > MAX_SEGMENTS:
        return f"The path has {len(segments)} segments; at most {MAX_SEGMENTS} are allowed."
    for segment in segments:
        if segment == "":
            return "The path has an empty segment (// or a trailing /); remove it."
        if segment in {".", ".."}:
            return "The path has a . or .. segment; write the path out in full."
        if segment.startswith("."):
            return f"The segment {segment!r} starts with a dot; hidden files and folders are not allowed."
    if not segments[-1].endswith(".md") or segments[-1] == ".md":
        return f"The file name {segments[-1]!r} must end in .md: memories are Markdown files."
    return None


def prefix_problem(prefix: object) -> str | None:
    """Return why ``prefix`` is not a valid path_prefix (it must start and end with /)."""
    if not isinstance(prefix, str) or not prefix.startswith("/") or not prefix.endswith("/"):
        return "path_prefix must start and end with /, such as /conventions/."
    if prefix == "/":
        return None
    bad = _bad_character(prefix)
    if bad is not None:
        return f"path_prefix holds a control or format character (U+{ord(bad):04X})."
    if len(prefix.encode("utf-8")) > MAX_PATH_BYTES:
        return "path_prefix is longer than 1,024 bytes."
    if not unicodedata.is_normalized("NFC", prefix):
        return "path_prefix is not in Unicode NFC form."
    for segment in prefix[1:-1].split("/"):
        if segment in {"", ".", ".."}:
            return "path_prefix has an empty, . or .. segment."
    return None


def segments_of(path: str) -> list[str]:
    return path[1:].split("/")
