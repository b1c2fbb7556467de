"""Scan time of notes built to stress each detector, beside a plain note of the same size, in one run.

    .venv/bin/python bench/pathological_inputs.py [--repeat 3]

The red-team tests only check that these scans end and answer; how long they take is measured here.
Each figure is the best of --repeat runs; the baseline is an ordinary lesson repeated to 100 kB.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stores.console_checks.detectors import instructions, secrets  # noqa: E402
from stores.console_checks.detectors.client_detail import ClientDetailMatcher  # noqa: E402
from tests.detection_data import pathological  # noqa: E402


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    plain = pathological.plain_note()
    terms, client_text = pathological.client_stress()
    started = time.perf_counter()
    matcher = ClientDetailMatcher(terms)
    built = time.perf_counter() - started
    secrets.scan("warm up: password = 'x'")
    instructions.scan("warm up")
    groups = [
        ("secrets", secrets.scan, pathological.secret_stress_notes()),
        ("instructions", instructions.scan, pathological.instruction_stress_notes()),
        ("client detail (9,000 terms)", matcher.scan, {"word pieces of the registry": client_text}),
    ]
    print(f"{'detector / note':<48} {'seconds':>8} {'x plain':>8}")
    for title, scan, notes in groups:
        baseline = best(lambda scan=scan: scan(plain), args.repeat)
        print(f"{title + ': plain 100 kB lesson (baseline)':<48} {baseline:8.3f}")
        for name, text in notes.items():
            seconds = best(lambda scan=scan, text=text: scan(text), args.repeat)
            print(f"  {name:<46} {seconds:8.3f} {seconds / baseline if baseline else 0:8.1f}")
    print(f"client-detail matcher built over {len(terms):,} terms in {built:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
