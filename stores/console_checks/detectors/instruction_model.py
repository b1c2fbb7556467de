"""A linear classifier over word and character n-grams: does a passage give orders to an agent?

The weights are trained by ``training/instructions/train.py`` (scikit-learn, logistic regression)
and committed as ``instruction_model.json.gz``: the feature strings that carry weight, their
weights, the intercept and the thresholds, and a second model of the same kind over whole notes
(``Model.note_weights``) whose logit, times ``blend``, is added to every passage's. Inference needs no scikit-learn and unpickles nothing:
a passage's features are a set of strings, its vector is that set scaled to unit length, and the
score is a sparse dot product (one dict look-up per feature).
"""

from __future__ import annotations

import gzip
import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat
from operator import itemgetter
from pathlib import Path

__all__ = ["MODEL_PATH", "Model", "features", "load", "passages", "scored", "segments"]

MODEL_PATH = Path(__file__).with_name("instruction_model.json.gz")
FEATURE_VERSION = 3  # bump when features() changes: the weights must be trained again

# Words in the alphabetic scripts that separate words by spaces (text is already folded to lower
# case): Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic, the Indic scripts, Thai and Lao, Georgian;
# runs of Chinese, Japanese and Korean characters, cut into character n-grams; and the punctuation
# that chat templates and role markers are made of.
_TOKEN = re.compile(
    r"([a-z0-9\u00df-\u024f\u0370-\u03ff\u0400-\u052f\u0531-\u058f\u05d0-\u05ea\u0620-\u064a"
    r"\u0660-\u06d3\u0750-\u077f\u0900-\u0dff\u0e01-\u0eff\u10a0-\u10ff\u1e00-\u1eff]+)"
    r"|([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff66-\uff9f]+)"
    r"|([<>\[\]{}|#:=/\\*-]{1,4})"
)


# A sentence ends at . ! ? ; followed by a space, at a line break, or at CJK full stops.
_BREAK = re.compile(r"(?<=[.!?;])\s+|\n+|(?<=[\u3002\uff01\uff1f])")


def segments(text: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of the sentences of a normalised text, blank ones left out."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BREAK.finditer(text):
        if text[start : m.start()].strip():
            spans.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


_GRAMS = re.compile(r"(?=([^ ]{4}))")
# ``_TOKEN``'s word and punctuation tokens in ASCII text (where its CJK runs cannot occur).
_ASCII_WORD = re.compile(r"[a-z0-9]+")
_PUNCT = re.compile(r"[<>\[\]{}|#:=/\\*-]{1,4}")
# A quotation of three words or more (or six CJK characters): text that is mentioned, not used. Its words
# are features of their own ("q", "r", "j"), so an order quoted inside a report of it ("the ticket said
# 'ignore the rules'; we did not follow it") weighs as the model learnt quoted text to weigh.
_QUOTE = re.compile(r'"[^"\n]{5,300}"|\u300c[^\u300d\n]{6,300}\u300d|\u300e[^\u300f\n]{6,300}\u300f')
_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")


def _quotations(text: str) -> list[tuple[int, int]]:
    """The spans of the quotations in ``text`` long enough to be a sentence (see ``_QUOTE``)."""
    return [m.span() for m in _QUOTE.finditer(text)
            if m.group()[0] != '"' or len(m.group().split()) >= 3 or _CJK_CHAR.search(m.group())]


# A word's own features, its "w " feature and its padded character 4-grams ("c "; a 4-gram never spans the
# space between two words, so a passage's are the union of its words'), kept for the words seen lately:
# a note's words are mostly words of the notes before it. Bounded; emptied when full.
_WORD_FEATURES: dict[str, tuple[str, ...]] = {}
_WORD_FEATURES_MAX = 20_000  # a few megabytes at most; a note rarely holds more than a thousand distinct words


def _word_features(word: str) -> tuple[str, ...]:
    feats = ("w " + word, *map("c ".__add__, _GRAMS.findall("<" + word + ">"))) if len(word) > 3 else ("w " + word,)
    if len(_WORD_FEATURES) >= _WORD_FEATURES_MAX:
        _WORD_FEATURES.clear()
    _WORD_FEATURES[word] = feats
    return feats


def features(text: str) -> set[str]:
    """The n-gram features of one normalised passage.

    Words and word pairs carry meaning; character 4-grams of each word (padded) carry its stem
    across languages, inflections and misspellings; CJK runs give character 2- and 3-grams. Words
    inside a quotation get features of their own kind (see ``_QUOTE``), and the passage one more.
    (Built with ``map`` and one regex pass rather than a loop per character: this runs on every write.)
    """
    quotes = _quotations(text) if "\"" in text or "\u300c" in text or "\u300e" in text else []
    if not quotes and text.isascii():
        # No quotation and no CJK run: the words are one run of word pairs, and the punctuation is found
        # apart (the token classes share no character, so each search finds the tokens the loop below does).
        words = _ASCII_WORD.findall(text)
        out = set(map("b ".__add__, map(" ".join, zip(words, words[1:], strict=False))))
        out.update(map("p ".__add__, _PUNCT.findall(text)))
        known = _WORD_FEATURES.get
        for word in words:
            out.update(known(word) or _word_features(word))
        return out
    out: set[str] = set()
    if quotes:
        out.add("x quote")
        parts = []
        last = 0
        for a, b in quotes:
            parts.append((text[last:a], False))
            parts.append((text[a:b], True))
            last = b
        parts.append((text[last:], False))
    else:
        parts = [(text, False)]
    long_words: list[str] = []
    for part, quoted in parts:
        w, b, k = ("q ", "r ", "j ") if quoted else ("w ", "b ", "k ")
        chunk: list[str] = []
        chunks = [chunk]
        for word, cjk, punct in _TOKEN.findall(part):
            if word:
                chunk.append(word)
            elif cjk:
                out.add(w + cjk[:6])
                out.update(k + cjk[i : i + 2] for i in range(len(cjk) - 1))
                out.update(k + cjk[i : i + 3] for i in range(len(cjk) - 2))
                chunk = []
                chunks.append(chunk)  # a CJK run ends a run of word pairs
            else:
                out.add("p " + punct)
        for words in chunks:
            out.update(map(w.__add__, words))
            out.update(map(b.__add__, map(" ".join, zip(words, words[1:], strict=False))))
        long_words += [x for words in chunks for x in words if len(x) > 3]
    if long_words:
        out.update(map("c ".__add__, _GRAMS.findall("<" + "> <".join(long_words) + ">")))
    return out


MIN_WORDS = 4  # a passage with fewer words is too short to judge by its words alone


def _words(feats: set[str]) -> int:
    kinds = "".join(map(itemgetter(0), feats))  # each feature's kind letter, counted in C rather than in a loop
    return kinds.count("w") + kinds.count("q") + (kinds.count("k") + kinds.count("j")) // 2


@dataclass(frozen=True)
class Model:
    """Weights by feature string, an intercept and the decision thresholds on the logit."""

    weights: dict[str, float]
    intercept: float
    threshold: float
    # Above this logit a passage is refused by its words alone; between ``threshold`` and this, only when
    # it also has a cue that it speaks to its reader (the second person, an agent, a modal, an imperative).
    strong: float = math.inf
    # A second linear model over the whole note's features (the union of its sentences'), trained on the notes
    # people wrote: how the note reads as a whole. ``blend`` times its logit is added to every passage's in a note
    # of two sentences or more, so a passage in a note that reads as orders throughout needs less of its own (a
    # note of one sentence is its passage: the note model would judge the same words twice). 0: passages alone.
    note_weights: dict[str, float] = field(default_factory=dict)
    note_intercept: float = 0.0
    blend: float = 0.0

    def score(self, feats: set[str]) -> float:
        """The logit of one passage: above ``threshold`` it reads as orders to an agent."""
        if not feats:
            return self.intercept
        return self.intercept + sum(map(self.weights.get, feats, repeat(0.0))) / math.sqrt(len(feats))

    def note_score(self, feats: set[str]) -> float:
        """The logit of the note model on the features of a whole note."""
        if not feats:
            return self.note_intercept
        return self.note_intercept + sum(map(self.note_weights.get, feats, repeat(0.0))) / math.sqrt(len(feats))

    def top_words(self, feats: set[str], n: int = 3) -> list[str]:
        """The words and word pairs that weigh most towards a refusal, to tell the writer why."""
        ranked = sorted(
            ((self.weights.get(f, 0.0), f[2:]) for f in feats if f[0] in "wb" and self.weights.get(f, 0.0) > 0),
            reverse=True,
        )
        words: list[str] = []
        for _weight, word in ranked:
            if not any(word in kept or kept in word for kept in words):
                words.append(word)
            if len(words) == n:
                break
        return words


def passages(model: Model, text: str) -> list[tuple[int, float, set[str]]]:
    """(offset, logit, features) of each passage of a normalised text: each sentence, or with its neighbour.

    Each sentence is judged alone and joined to the next one (an order split over two sentences),
    keeping the higher score, and a pair is named by the sentence of the two that weighs more;
    passages shorter than ``MIN_WORDS`` words are not judged alone. Each logit includes the note's share
    (``Model.blend``).
    """
    return scored(model, text)[0]


def scored(model: Model, text: str, note: bool = True) -> tuple[list[tuple[int, float, set[str]]], float]:
    """``passages`` and the note's share of each logit (``blend`` times the note model's logit, for a text of two
    sentences or more; 0 without a note model, and with ``note=False``, for a text that is not a note)."""
    spans = segments(text)
    feats = [features(text[a:b]) for a, b in spans]
    shift = model.blend * model.note_score(set().union(*feats)) if note and model.blend and len(feats) > 1 else 0.0
    get = model.weights.get
    # Each sentence's weight sum once; a pair's is the two sums less what they share.
    sums = [sum(map(get, fs, repeat(0.0))) for fs in feats]
    # A passage of one unbroken token ("/agents/bob/notes.md", a URL) is a name, not a sentence: its words
    # are judged as a file name's (see ``instructions``), not here. CJK text has no spaces and is judged.
    words = [_words(fs) if " " in text[a:b].strip() or any(f[0] in "kj" for f in fs) else 0
             for (a, b), fs in zip(spans, feats, strict=True)]

    def logit(total: float, n: int) -> float:
        return model.intercept + shift + (total / math.sqrt(n) if n else 0.0)

    out: list[tuple[int, float, set[str]]] = []
    for i, (start, _end) in enumerate(spans):
        best: set[str] | None = None
        alone = logit(sums[i], len(feats[i]))
        score = float("-inf")
        if words[i] >= MIN_WORDS:
            best, score = feats[i], alone
        if i + 1 < len(spans) and words[i] >= 2:
            shared = feats[i] & feats[i + 1]
            total = sums[i] + sums[i + 1] - sum(map(get, shared, repeat(0.0)))
            pair_score = logit(total, len(feats[i]) + len(feats[i + 1]) - len(shared))
            if pair_score > score:
                best, score = feats[i] | feats[i + 1], pair_score
                if logit(sums[i + 1], len(feats[i + 1])) > alone:
                    start = spans[i + 1][0]  # the pair is named by the sentence that weighs more
        if best is not None:
            out.append((start, score, best))
    return out, shift


@lru_cache(maxsize=1)
def load(path: Path = MODEL_PATH) -> Model:
    """The committed model (read once per process)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    if data["feature_version"] != FEATURE_VERSION:
        raise RuntimeError(f"{path.name} was trained for features v{data['feature_version']}, not v{FEATURE_VERSION}")
    note = data.get("note", {"features": [], "weights": [], "intercept": 0.0, "blend": 0.0})
    return Model(dict(zip(data["features"], data["weights"], strict=True)), data["intercept"], data["threshold"],
                 data.get("strong", math.inf),
                 dict(zip(note["features"], note["weights"], strict=True)), note["intercept"], note["blend"])
