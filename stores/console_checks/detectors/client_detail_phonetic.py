"""A Latin client name written phonetically in Cyrillic or Greek letters ("Нортвинд" for "Northwind").

Look-alike letters (a Cyrillic "а" in "Acmе") are the confusables' job; this is the other way to
write a name in another script: by its sound. The words of the other script are transliterated to
Latin letters (anyascii, from PyPI), and both they and the registered names are reduced to a
consonant skeleton that forgets what transliteration changes: vowels, doubled letters, and the
spellings of one sound ("th" / "t", "w" / "v", "c" / "k" or "s", "x" / "ks", "ph" / "f", "nd" /
"nt" as Greek writes both "ντ"). "Northwind" and "Нортвинд" (Nortvind) are both "nrtvnt", with two syllables.

The words of the script are only read so when one of them is no word of a language written in it
(wordfreq: Russian, Ukrainian, Bulgarian, Macedonian, Greek), and the syllables agree.

Only names with a skeleton of five consonants or more are read this way, so a short skeleton that
many words share ("Acme": "km") is never matched; a name found so was written to slip past a match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from anyascii import anyascii
from wordfreq import zipf_frequency

__all__ = ["PhoneticNames"]

# A word written in Cyrillic or Greek letters (with their combining accents), three letters or more.
_SCRIPT_WORD = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff\u0400-\u052f\u0300-\u036f]{3,}")
_SCRIPT_HINT = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff\u0400-\u052f]")
# What may stand between the words of one name: a space or a hyphen.
_BETWEEN = re.compile(r"[ \-]{1,2}")
# Modern Greek spells some Latin sounds with two letters: "γου" before a vowel is a w, "γκ" a g, and
# "χ" is an h (where a Cyrillic "ч" is the "ch" of "chart"). Its "ντ" and "μπ" are "nt" or "nd", "mp"
# or "mb": the skeleton folds those pairs.
_GREEK_DIGRAPHS = (("γου", "w"), ("χ", "h"), ("γκ", "g"))
# One sound, several spellings: folded the same on both sides, longest first.
_SOUNDS = (
    ("sch", "s"), ("tch", "c"), ("qu", "kv"), ("th", "t"), ("ph", "f"), ("gh", ""), ("ck", "k"), ("kh", "h"),
    ("ch", "c"), ("sh", "s"), ("zh", "s"), ("ts", "s"), ("nd", "nt"), ("mb", "mp"), ("w", "v"), ("q", "k"),
    ("x", "ks"), ("z", "s"),
)
_SOFT_C = re.compile(r"c(?=[eiy])")
_VOWELS = re.compile(r"[aeiouy]+")
_DOUBLED = re.compile(r"(.)\1+")
_MIN_CONSONANTS = 5
_MAX_WORDS = 4
# The languages written in these scripts that wordfreq knows: a word of theirs ("закончится" is
# also "sknks", as a client "Skonox" is) is that language's word, not a name written by sound. A
# name transliterated is rare in them (Zipf below this) or absent.
_SCRIPT_LANGUAGES = ("ru", "uk", "bg", "mk", "el")
_NATIVE_ZIPF = 2.0


def skeleton(latin: str) -> str:
    """The consonant skeleton of a Latin spelling: what survives transliteration ("Northwind" -> "nrtvnd").

    A word that opens on a vowel keeps a mark for it, so "Olvik" is not "Lvik".
    """
    word = "".join(ch for ch in latin.lower() if "a" <= ch <= "z")
    if not word:
        return ""
    opens_on_vowel = word[0] in "aeiou"
    word = _SOFT_C.sub("s", word)
    for spelling, sound in _SOUNDS:
        word = word.replace(spelling, sound)
    word = word.replace("c", "k")
    word = _DOUBLED.sub(r"\1", _VOWELS.sub("", word))
    return ("_" if opens_on_vowel else "") + word


def _syllables(latin: str, silent_e: bool = False) -> int:
    """How many runs of vowels a Latin spelling has: its syllables. With ``silent_e``, an English
    final "e" after a consonant is none ("Copperline" has three, as "Копперлайн" does)."""
    word = "".join(ch for ch in latin.lower() if "a" <= ch <= "z")
    if silent_e and len(word) > 3 and word.endswith("e") and word[-2] not in "aeiouy":
        word = word[:-1]
    return len(_VOWELS.findall(word))


def _native(word: str) -> bool:
    """Whether a Cyrillic or Greek word is a word of a language written in that script."""
    lowered = word.lower()
    return any(zipf_frequency(lowered, lang) >= _NATIVE_ZIPF for lang in _SCRIPT_LANGUAGES)


def _transliterated(word: str) -> str:
    lowered = word.lower()
    for greek, latin in _GREEK_DIGRAPHS:
        lowered = lowered.replace(greek, latin)
    return anyascii(lowered)


class PhoneticNames:
    """Registered names by their skeleton, to find them written by sound in Cyrillic or Greek."""

    def __init__(self, names: Iterable[tuple[str, object]]) -> None:
        """``names``: (a name as registered, what to return when it is found)."""
        self._by_skeleton: dict[str, list[tuple[int, object]]] = {}
        for name, value in names:
            words = [w for w in re.split(r"[\s\-_,.&]+", name) if w]
            if not words or len(words) > _MAX_WORDS:
                continue
            key = "".join(skeleton(w) for w in words)
            if sum(ch != "_" for ch in key) >= _MIN_CONSONANTS:
                self._by_skeleton.setdefault(key, []).append((sum(_syllables(w, silent_e=True) for w in words), value))

    def find(self, text: str) -> Iterator[tuple[int, object]]:
        """Each (position in ``text``, value) of a name written in Cyrillic or Greek letters by sound."""
        if not self._by_skeleton or _SCRIPT_HINT.search(text) is None:
            return
        words = list(_SCRIPT_WORD.finditer(text))
        for i, first in enumerate(words):
            key, syllables = "", 0
            for j in range(i, min(i + _MAX_WORDS, len(words))):
                if j > i and not _BETWEEN.fullmatch(text, words[j - 1].end(), words[j].start()):
                    break  # the next word is not the next word of a name
                latin = _transliterated(words[j].group(0))
                key += skeleton(latin)
                syllables += _syllables(latin)
                entries = self._by_skeleton.get(key)
                # One word of the match at least is no word of the script's languages ("Марин" is one,
                # "Халворсен" is not): a sentence of Russian or Greek is read as such.
                if entries and not all(_native(w.group(0)) for w in words[i : j + 1]):
                    for count, value in entries:
                        if count == syllables:  # and as many syllables
                            yield first.start(), value
