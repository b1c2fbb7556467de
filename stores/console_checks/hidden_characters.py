"""Where a text holds the invisible characters the instructions check refuses, and how to name them.

The detector says which lines hold one (``instructions.INVISIBLE``); a writer told only "line 3
reads as instructions" cannot see what to remove, since the character is invisible. This finds
each one again, with the same set of characters the detector reports, and names it by its code
point, its Unicode name, its line and its column.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from .detectors.instruction_text import REPORTED_INVISIBLE_RE

# The characters a refusal lists in its details; its message names the first and counts the rest.
HIDDEN_LISTED = 20


@dataclass(frozen=True)
class HiddenCharacter:
    """One invisible character: its code point, its name, and where it is (1-based line and column)."""

    char: str
    line: int
    column: int

    @property
    def code(self) -> str:
        return f"U+{ord(self.char):04X}"

    @property
    def name(self) -> str:
        return unicodedata.name(self.char, "unnamed format character")

    def as_detail(self) -> dict[str, Any]:
        return {"code": self.code, "name": self.name, "line": self.line, "column": self.column}


def hidden_characters(text: str) -> list[HiddenCharacter]:
    """Every invisible character the instructions check reports, in reading order.

    Lines are counted as the detector counts them (``\\r\\n``, ``\\r`` and ``\\n`` each end one), and a
    byte-order mark opening the text is left out, as the detector leaves it out: editors save UTF-8 so.
    """
    found: list[HiddenCharacter] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate(lines, start=1):
        for match in REPORTED_INVISIBLE_RE.finditer(line):
            if number == 1 and match.start() == 0 and match.group() == "\ufeff":
                continue
            found.append(HiddenCharacter(match.group(), number, match.start() + 1))
    return found


def hidden_sentence(hidden: list[HiddenCharacter]) -> str:
    """Where the first invisible character is and what it is, and how many more there are (no stop)."""
    first = hidden[0]
    sentence = f"Line {first.line}, column {first.column} holds an invisible character, {first.code} {first.name}"
    rest = hidden[1:]
    if rest:
        lines = sorted({c.line for c in rest})
        shown = ", ".join(str(n) for n in lines[:10]) + (", ..." if len(lines) > 10 else "")
        sentence += f", and {len(rest)} more on line{'s' if len(lines) > 1 else ''} {shown}"
    return sentence


def them(hidden: list[HiddenCharacter]) -> str:
    """"it" or "them", for the sentence that says to remove the characters."""
    return "it" if len(hidden) == 1 else "them"
