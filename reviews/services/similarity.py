"""Pure text similarity: words, word shingles, MinHash signatures with LSH banding, and a fold.

A note's 3-word shingles are hashed once each with SHAKE-128 into ``PERMUTATIONS`` independent
32-bit values, and its signature is the minimum of each: two notes agree on a position with a
probability equal to the Jaccard similarity of their shingle sets. Banding (``BANDS`` bands of
``ROWS`` rows) makes candidate pairs without comparing every pair; each candidate is then measured
exactly, so the banding only decides which pairs are looked at. With 21 bands of 3 rows (63
values a note), a pair at Jaccard 0.6 (the default threshold) becomes a candidate with probability
0.994, at 0.5 with 0.94, at 0.1 with 0.02 and at 0.05 with 0.003: few unrelated pairs are measured.
"""

from __future__ import annotations

import hashlib
import re
import struct
from array import array
from collections import defaultdict
from collections.abc import Iterable

SHINGLE_WORDS = 3
BANDS = 21
ROWS = 3
PERMUTATIONS = BANDS * ROWS
_UNPACK = struct.Struct(f">{PERMUTATIONS}I").unpack
_WORD = re.compile(r"[\w][\w.\-/]*", re.UNICODE)


def words(text: str) -> list[str]:
    """The text's words, lower-cased; dots, dashes and slashes inside a word kept (raw.orders)."""
    return [w.rstrip(".-/") for w in _WORD.findall(text.lower())]


def shingles(text: str, k: int = SHINGLE_WORDS) -> set[str]:
    """The text's k-word shingles (a shorter text is one shingle of all its words)."""
    ws = words(text)
    if len(ws) <= k:
        return {" ".join(ws)} if ws else set()
    return {" ".join(ws[i : i + k]) for i in range(len(ws) - k + 1)}


def jaccard(a: set[str], b: set[str]) -> float:
    """|a ∩ b| / |a ∪ b| (0 for two empty sets)."""
    if not a or not b:
        return 0.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)


def containment(a: set[str], b: set[str]) -> float:
    """The share of ``a`` found in ``b``."""
    if not a:
        return 0.0
    return len(a & b) / len(a)


def signature(shingle_set: Iterable[str]) -> array | None:
    """The MinHash signature of a shingle set (PERMUTATIONS unsigned 32-bit values); None if empty."""
    rows = [_UNPACK(hashlib.shake_128(s.encode("utf-8")).digest(4 * PERMUTATIONS)) for s in shingle_set]
    if not rows:
        return None
    return array("I", map(min, zip(*rows, strict=True)))


class LshIndex:
    """Buckets of signatures by band: items sharing any band's rows are candidate pairs.

    Most buckets hold one item, kept as a bare key; a list is made only when a second arrives,
    so the index costs little more than its keys.
    """

    def __init__(self) -> None:
        self._buckets: dict[bytes, int | list[int]] = {}

    def add(self, key: int, sig: array) -> None:
        raw = sig.tobytes()
        width = 4 * ROWS
        buckets = self._buckets
        for band in range(BANDS):
            # The band number joins the bucket's key so equal rows in different bands never meet.
            bucket = bytes((band,)) + raw[band * width : (band + 1) * width]
            held = buckets.get(bucket)
            if held is None:
                buckets[bucket] = key
            elif isinstance(held, list):
                held.append(key)
            else:
                buckets[bucket] = [held, key]

    def candidate_pairs(self) -> set[tuple[int, int]]:
        """Every pair (smaller key first) that shares at least one band."""
        pairs: set[tuple[int, int]] = set()
        for members in self._buckets.values():
            if not isinstance(members, list):
                continue
            ordered = sorted(set(members))
            for i, a in enumerate(ordered):
                for b in ordered[i + 1 :]:
                    pairs.add((a, b))
        return pairs


def groups_of(pairs: Iterable[tuple[int, int]]) -> list[list[int]]:
    """Connected groups of the pairs (union-find), each sorted, the list sorted by first member."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[int, list[int]] = defaultdict(list)
    for x in parent:
        groups[find(x)].append(x)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: g[0])


def _norm(line: str) -> str:
    return " ".join(words(line))


def fold_texts(kept: str, others: list[str]) -> str:
    """One note from several: the kept note's text, then each line of the others it lacks, in order.

    A line counts as present when its words (lower-cased, punctuation aside) match a line already
    in the fold; blank lines of the others are not carried. Deterministic: same inputs, same text.
    """
    lines = kept.splitlines()
    seen = {_norm(line) for line in lines if line.strip()}
    added: list[str] = []
    for text in others:
        for line in text.splitlines():
            key = _norm(line)
            if not line.strip() or key in seen:
                continue
            seen.add(key)
            added.append(line.rstrip())
    body = "\n".join(lines).rstrip("\n")
    if added:
        body = body + "\n" + "\n".join(added)
    return body + "\n"


def best_passage(text: str, target: set[str], *, max_chars: int = 400) -> str:
    """The paragraph (or line) of ``text`` that shares the most shingles with ``target``, trimmed."""
    parts = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()] or [text.strip()]
    best = max(parts, key=lambda p: (len(shingles(p) & target), -len(p)))
    return best if len(best) <= max_chars else best[: max_chars - 1].rstrip() + "…"
