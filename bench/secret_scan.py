"""Speed and fidelity of the secret scanner against detect-secrets' own in-process scan.

    python bench/secret_scan.py

On ~2 kB notes from the labelled sets it times, per note:

- ours: ``secrets.scan`` (detect-secrets with the line prefilter, plus our own plugins);
- detect-secrets' own in-process scan, two ways: ``scan_line`` over every line with the default
  plugins (the ad-hoc API), and the file scan's line loop (``_process_line_based_plugins``, what
  ``scan_file`` runs) with the settings we configure.

It prints both, the ratio (target: ours <= 0.2 x detect-secrets'), and checks that the
detect-secrets findings of our prefiltered scan equal the file scan's on every note of every set
and on random texts built to stress the prefilter.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script from anywhere: put the repository root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stores.console_checks.detectors import secrets  # noqa: E402
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
RATIO_TARGET = 0.2


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
    """Texts where the prefiltered detect-secrets findings differ from detect-secrets' full scan."""
    out = []
    for text in texts:
        fast, full = secrets.detect_secrets_scan(text), secrets.detect_secrets_full_scan(text)
        if fast != full:
            out.append((text, fast, full))
    return out


def _time_per_note(fn, notes: list[str], rounds: int = 3) -> float:
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


def main() -> int:
    from detect_secrets.settings import default_settings

    notes = two_kb_notes()
    secrets.scan(notes[0])  # configure detect-secrets once, as the console does at first use
    ours = _time_per_note(secrets.scan, notes)
    file_scan = _time_per_note(secrets.detect_secrets_full_scan, notes)
    # scan_line with every default plugin; the default settings are set once around the loop.
    with default_settings():
        scan_line = _time_per_note(_scan_line_all_lines, notes)
    ratio = ours / scan_line
    print(f"notes: {len(notes)}, {statistics.mean(map(len, notes)):.0f} characters on average")
    print(f"ours (secrets.scan, incl. our plugins):                {ours:7.3f} ms per note")
    print(f"detect-secrets scan_line over every line, defaults:    {scan_line:7.3f} ms per note")
    print(f"detect-secrets file-scan line loop, same settings:     {file_scan:7.3f} ms per note")
    print(f"ratio ours / scan_line: {ratio:.3f} (target <= {RATIO_TARGET})   "
          f"ours / file scan: {ours / file_scan:.3f}")

    texts = all_texts()
    bad = mismatches(texts)
    print(f"detect-secrets findings identical on {len(texts) - len(bad)}/{len(texts)} texts")
    for text, fast, full in bad[:10]:
        print(f"  MISMATCH {text[:120]!r}\n    ours {fast}\n    full {full}")
    ok = ratio <= RATIO_TARGET and not bad
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
