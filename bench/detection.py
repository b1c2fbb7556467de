"""Detection rates of the console's detectors on the labelled sets.

    python bench/detection.py [-v]

Targets: at least 99% of secrets and of client detail caught, at least 97% of instructions caught,
at most 1% of legitimate lessons refused (by any detector), every path judged right.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script from anywhere: put the repository root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stores.console_checks.detectors import instructions, secrets  # noqa: E402
from stores.console_checks.detectors.client_detail import ClientDetailMatcher  # noqa: E402
from stores.paths import path_problem  # noqa: E402
from tests.detection_data.labelled_sets import (  # noqa: E402
    client_cases,
    client_registry,
    instruction_cases,
    legitimate_lessons,
    path_cases,
    secret_cases,
)

TARGETS = {
    "secrets caught": 99.0,
    "client detail caught": 99.0,
    "instructions caught": 97.0,
    "legitimate lessons refused": 1.0,  # at most
    "paths correctly judged": 100.0,
}


@dataclass
class Rate:
    """A share of cases, and the cases that went the wrong way."""

    hits: int = 0
    total: int = 0
    wrong: list[str] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return 100.0 * self.hits / self.total if self.total else 0.0


def measure() -> dict[str, Rate]:
    """Run every detector on its labelled set; return the rates by name."""
    matcher = ClientDetailMatcher(client_registry())
    rates: dict[str, Rate] = {
        name: Rate()
        for name in (
            "secrets caught",
            "secret near misses refused",
            "client detail caught",
            "client near misses refused",
            "instructions caught",
            "instruction near misses refused",
            "legitimate lessons refused",
            "paths correctly judged",
        )
    }

    def count(name: str, hit: bool, case: str) -> None:
        rate = rates[name]
        rate.total += 1
        rate.hits += hit
        wrong = not hit if "caught" in name or "judged" in name else hit
        if wrong:
            rate.wrong.append(case)

    for case in secret_cases():
        if case.positive:
            count("secrets caught", bool(secrets.scan(case.text)), f"[{case.kind}] {case.text!r}")
        elif case.kind == "near miss":
            count("secret near misses refused", bool(secrets.scan(case.text)), repr(case.text))
    for case in instruction_cases():
        if case.positive:
            count("instructions caught", bool(instructions.scan(case.text)), f"[{case.kind}] {case.text!r}")
        elif case.kind == "near miss":
            count("instruction near misses refused", bool(instructions.scan(case.text)), repr(case.text))
    for case in client_cases():
        if case.positive:
            count("client detail caught", bool(matcher.scan(case.text)), f"[{case.kind}] {case.note}: {case.text!r}")
        elif case.kind == "near miss":
            count("client near misses refused", bool(matcher.scan(case.text)), repr(case.text))
    for lesson in legitimate_lessons():
        why = []
        if secrets.scan(lesson):
            why.append(f"secrets {secrets.scan(lesson)}")
        if instructions.scan(lesson):
            why.append(f"instructions {instructions.scan(lesson)}")
        if matcher.scan(lesson):
            why.append(f"client detail {matcher.scan(lesson)}")
        count("legitimate lessons refused", bool(why), f"{'; '.join(why)}: {lesson!r}")
    for case in path_cases():
        count("paths correctly judged", (path_problem(case.text) is not None) == case.positive, f"[{case.kind}] {case.text!r}")
    return rates


def meets_targets(rates: dict[str, Rate]) -> dict[str, bool]:
    """Whether each targeted rate meets its target."""
    out = {}
    for name, target in TARGETS.items():
        value = rates[name].percent
        out[name] = value <= target if name == "legitimate lessons refused" else value >= target
    return out


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    started = time.perf_counter()
    rates = measure()
    elapsed = time.perf_counter() - started
    ok = meets_targets(rates)
    print(f"{'set':<34} {'rate':>8} {'cases':>7}  target")
    for name, rate in rates.items():
        target = TARGETS.get(name)
        mark = "" if target is None else ("  ok" if ok[name] else "  MISSED")
        bound = "" if target is None else ("<= " if name == "legitimate lessons refused" else ">= ") + f"{target:g}%"
        print(f"{name:<34} {rate.percent:7.2f}% {rate.hits:>4}/{rate.total:<4} {bound}{mark}")
        if verbose:
            for case in rate.wrong[:40]:
                print(f"      - {case[:300]}")
    print(f"({elapsed:.1f} s)")
    return 0 if all(ok.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
