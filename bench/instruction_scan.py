"""Speed of the instructions check on ~2 kB notes, with a baseline measured in the same run.

    python bench/instruction_scan.py

On ~2 kB notes built from the labelled sets (half hold an order to the agent, half are plain
lessons) it times, per note: the whole check (``instructions.scan``), its two halves (the
training-free signals, and the classifier over every passage), and as the baseline the text's
normalisation alone (every check pays that one pass over the text). Target: the whole check
under 1 ms per 2 kB note on this machine. Figures are medians of several rounds.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script from anywhere: put the repository root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stores.console_checks.detectors import instruction_model, instruction_signals, instructions  # noqa: E402
from stores.console_checks.detectors.instruction_text import normalise  # noqa: E402
from tests.detection_data.labelled_sets import SEED, instruction_cases, legitimate_lessons, padded_note  # noqa: E402

NOTE_SIZE = 2048
TARGET_MS = 1.0
ROUNDS = 7


def two_kb_notes(count: int = 100) -> list[str]:
    """~2 kB notes: half hold an order to the agent somewhere in lesson text, half are plain lessons."""
    rng = random.Random(SEED + 11)
    positives = [c.text for c in instruction_cases() if c.positive]
    lessons = legitimate_lessons()
    return [padded_note(rng, rng.choice(positives) if i % 2 == 0 else rng.choice(lessons), NOTE_SIZE)
            for i in range(count)]


def per_note_ms(fn, notes: list[str]) -> float:
    """Median over rounds of the mean time per note, in milliseconds."""
    rounds = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        for note in notes:
            fn(note)
        rounds.append((time.perf_counter() - started) * 1000 / len(notes))
    return statistics.median(rounds)


def main() -> None:
    notes = two_kb_notes()
    model = instruction_model.load()

    def normalised(note: str) -> str:
        return "\n".join(normalise(line) for line in note.split("\n"))

    def signals(note: str) -> None:
        text = normalised(note)
        instruction_signals.sentence_signals(text)
        for line in text.split("\n"):
            instruction_signals.line_markers(line)

    def classifier(note: str) -> None:
        instruction_model.passages(model, normalised(note))

    for note in notes[:5]:
        instructions.scan(note)  # warm up (the model loads once per process)
    baseline = per_note_ms(normalised, notes)
    whole = per_note_ms(instructions.scan, notes)
    print(f"{len(notes)} notes of ~{NOTE_SIZE} bytes, median of {ROUNDS} rounds, per note:")
    print(f"  baseline: normalisation alone      {baseline:7.3f} ms")
    print(f"  signals (normalised + markers)     {per_note_ms(signals, notes):7.3f} ms")
    print(f"  classifier (normalised + passages) {per_note_ms(classifier, notes):7.3f} ms")
    print(f"  whole check: instructions.scan     {whole:7.3f} ms  ({whole / baseline:.1f}x the baseline; "
          f"target < {TARGET_MS} ms: {'met' if whole < TARGET_MS else 'NOT met'})")
    print(f"  model: {len(model.weights)} weighted features")


if __name__ == "__main__":
    main()
