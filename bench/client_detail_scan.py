"""Speed of the client-detail matcher on ~2 kB notes, with a baseline measured in the same run.

    python bench/client_detail_scan.py

A registry of hundreds of terms (the three development blind rounds' clients beside the first 60
generated clients of the labelled registry) scans ~2 kB notes built from the labelled lessons:
half hold a client term somewhere (disguised as the development rounds disguise them), half are
plain lessons. It times, per note, ``ClientDetailMatcher.scan`` and, as the baseline, the text's
normalised view alone (every scan pays that pass). Target: well under 1 ms per 2 kB note on this
machine. Figures are medians of several rounds, in CPU time. The held-out split is never read.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script from anywhere: put the repository root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stores.console_checks.detectors.client_detail import ClientDetailMatcher, ClientTerm, _View  # noqa: E402
from tests.detection_data import heldout  # noqa: E402
from tests.detection_data.labelled_sets import SEED, client_registry, legitimate_lessons, padded_note  # noqa: E402

NOTE_SIZE = 2048
TARGET_MS = 1.0
ROUNDS = 7
GENERATED_CLIENTS = 60


def registry() -> list[ClientTerm]:
    """The development rounds' clients and some generated ones: several hundred terms."""
    terms = [t for d in heldout.DEVELOPMENT_ROUNDS for c in heldout.load(d).registry for t in c.terms()]
    generated = client_registry()
    clients = list(dict.fromkeys(t.client for t in generated))[:GENERATED_CLIENTS]
    keep = set(clients)
    return terms + [t for t in generated if t.client in keep]


def two_kb_notes(count: int = 100) -> list[str]:
    """~2 kB notes: half hold a development round's client detail, half are plain lessons."""
    rng = random.Random(SEED + 13)
    positives = [c.text for d in heldout.DEVELOPMENT_ROUNDS for c in heldout.load(d).client_detail if c.refuse]
    lessons = legitimate_lessons()
    return [padded_note(rng, rng.choice(positives) if i % 2 == 0 else rng.choice(lessons), NOTE_SIZE)
            for i in range(count)]


def per_note_ms(fn, notes: list[str]) -> float:
    """Median over rounds of the mean CPU time per note, in milliseconds (process time, so other
    work on a shared machine does not count)."""
    rounds = []
    for _ in range(ROUNDS):
        started = time.process_time()
        for note in notes:
            fn(note)
        rounds.append((time.process_time() - started) * 1000 / len(notes))
    return statistics.median(rounds)


def main() -> None:
    terms = registry()
    started = time.perf_counter()
    matcher = ClientDetailMatcher(terms)
    built = time.perf_counter() - started
    notes = two_kb_notes()
    for note in notes[:5]:
        matcher.scan(note)  # warm up the folding cache
    baseline = per_note_ms(_View, notes)
    whole = per_note_ms(matcher.scan, notes)
    found = sum(bool(matcher.scan(n)) for n in notes)
    print(f"{len(notes)} notes of ~{NOTE_SIZE} bytes, {len(terms)} registry terms "
          f"(matcher built in {built * 1000:.0f} ms), median of {ROUNDS} rounds, per note:")
    print(f"  baseline: the normalised view alone  {baseline:7.3f} ms")
    print(f"  whole scan: ClientDetailMatcher.scan {whole:7.3f} ms  ({whole / baseline:.1f}x the baseline; "
          f"target < {TARGET_MS} ms: {'met' if whole < TARGET_MS else 'NOT met'})")
    print(f"  notes with a finding: {found}/{len(notes)}")


if __name__ == "__main__":
    main()
