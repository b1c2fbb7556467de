"""Text as a reader understands it, for the instructions detector and the classifier it trains.

One normalisation, shared by the detector at write time and by the training script, so the
classifier sees at run time exactly the text shapes it was trained on: invisible characters
removed, HTML entities decoded, full-width and look-alike letters folded to plain ones, accents
dropped, Markdown emphasis removed, spaces folded, lower case.
"""

from __future__ import annotations

import html
import re
import unicodedata

__all__ = ["INVISIBLE_RE", "REPORTED_INVISIBLE_RE", "normalise"]

# Zero-width and joiner characters, word joiner and invisible operators, BOM, bidi overrides and
# isolates, Unicode tag characters; also soft hyphen and other default-ignorables used to split words.
INVISIBLE_RE = re.compile(
    "[\u200b-\u200f\u2060-\u2065\ufeff\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f"
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u3164\uffa0]"
)
# The ones reported on their own; a soft hyphen in a pasted word is common and harmless.
REPORTED_INVISIBLE_RE = re.compile("[\u200b-\u200f\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f]")

# Look-alike letters (Cyrillic, Greek) that spell Latin words. They are folded only inside a word that
# is spoofed: one mixing them with Latin letters ("ignоre"), or made of nothing else ("ехес"). A word of
# real Russian or Greek keeps its letters ("пожалуйста"), so the classifier reads it as the language it is.
_LOOKALIKES = {
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j",
    "ѕ": "s", "ԁ": "d", "ɡ": "g", "һ": "h", "ӏ": "l", "ո": "n", "ս": "u", "ᴠ": "v", "ԝ": "w",
    "А": "a", "В": "b", "Е": "e", "К": "k", "М": "m", "Н": "h", "О": "o", "Р": "p", "С": "c",
    "Т": "t", "Х": "x", "У": "y", "І": "i", "Ј": "j", "Ѕ": "s",
    "α": "a", "ο": "o", "ρ": "p", "ι": "i", "κ": "k", "ν": "v", "τ": "t", "υ": "u", "ε": "e",
    "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "i", "Κ": "k", "Μ": "m", "Ν": "n",
    "Ο": "o", "Ρ": "p", "Τ": "t", "Υ": "y", "Χ": "x",
}
_HOMOGLYPHS = str.maketrans(_LOOKALIKES)
# Typographic punctuation, folded everywhere.
_PUNCTUATION = str.maketrans(
    {
        "\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
        "\u00ab": '"', "\u00bb": '"', "\u201e": '"',
    }
)
_WORD = re.compile(r"[^\W\d_]+")
_LOOKALIKE_CHARS = frozenset(_LOOKALIKES)


def _unspoofed(m: re.Match[str]) -> str:
    word = m.group()
    if not _LOOKALIKE_CHARS.intersection(word):
        return word
    if any(c.isascii() for c in word) or _LOOKALIKE_CHARS.issuperset(word):
        return word.translate(_HOMOGLYPHS)
    return word


_MD_EMPHASIS = re.compile(r"(?:\*{1,3}|~~|`+)|(?<![A-Za-z0-9])_{1,3}|_{1,3}(?![A-Za-z0-9])")
_SPACES = re.compile(r"[ \t\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_CONTRACTIONS = {
    "you're": "you are", "you've": "you have", "you'll": "you will", "i'm": "i am", "it's": "it is",
    "you'd": "you would", "that's": "that is", "don't": "do not", "doesn't": "does not", "isn't": "is not",
    "aren't": "are not", "can't": "cannot", "won't": "will not", "shouldn't": "should not",
    "mustn't": "must not", "needn't": "need not", "didn't": "did not",
}
_CONTRACTION_RE = re.compile(r"\b(?:" + "|".join(re.escape(c) for c in _CONTRACTIONS) + r")\b")


def normalise(line: str) -> str:
    """``line`` as a reader understands it: decoded, folded to plain lower-case letters."""
    line = INVISIBLE_RE.sub("", line)
    if "&" in line:
        line = html.unescape(line)
    if not line.isascii():
        line = _WORD.sub(_unspoofed, unicodedata.normalize("NFKC", line).translate(_PUNCTUATION))
        # Accents: "ïgnore" reads as "ignore", "précédentes" as "precedentes".
        line = "".join(c for c in unicodedata.normalize("NFKD", line) if not unicodedata.combining(c))
    line = _MD_EMPHASIS.sub("", line)
    line = _SPACES.sub(" ", line).lower()
    if "'" in line:
        line = _CONTRACTION_RE.sub(lambda m: _CONTRACTIONS[m.group(0)], line)
    return line
