"""Line differences between two texts, as rows a template renders (and escapes) one by one."""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class DiffLine:
    """One line of a unified diff: ``kind`` is add, remove, context or hunk (the @@ header)."""

    kind: str
    text: str


def text_diff(old: str, new: str, *, old_label: str, new_label: str, context: int = 3) -> list[DiffLine]:
    """The unified diff of ``old`` against ``new``; an empty list when the texts are the same.

    The text stays plain: the template escapes every line, so a diff of HTML-looking memory text
    shows as text and never becomes markup.
    """
    lines: list[DiffLine] = []
    rows = difflib.unified_diff(
        old.splitlines(), new.splitlines(), fromfile=old_label, tofile=new_label, lineterm="", n=context
    )
    for number, raw in enumerate(rows):
        if number < 2:
            continue  # the ---/+++ labels; the page's heading names both versions instead
        if raw.startswith("@@"):
            kind = "hunk"
        elif raw.startswith("+"):
            kind = "add"
        elif raw.startswith("-"):
            kind = "remove"
        else:
            kind = "context"
        lines.append(DiffLine(kind=kind, text=raw))
    return lines
