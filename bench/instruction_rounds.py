"""The instructions check round by round: caught, look-alikes and lessons refused, per blind round.

    python bench/instruction_rounds.py [-v] [--round 1|3|5|6|7|8|9|10|11|12|13|14|15|dev] [--by kind|lang|writer]

Development data only (blind rounds 1, 3 and 5 to 8 and the labelled sets); the held-out split is never read.
The instructions classifier is trained on all of them, so these are training-set figures, not a
detection rate: ``python -m training.instructions.train --leave-out round5-w3`` gives the figure
for a writer the model never saw.
Keeping the rounds apart lets a change be judged on the round it was not written against.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.bench_settings")

import django  # noqa: E402

django.setup()

from stores.console_checks.detectors import instructions  # noqa: E402
from tests.detection_data import heldout, public  # noqa: E402
from tests.detection_data.labelled_sets import instruction_cases, legitimate_lessons  # noqa: E402


def _refused(text: str) -> bool:
    return bool(instructions.scan(text))


def _rounds() -> dict[str, tuple[list[tuple[str, str, bool, str]], list[tuple[str, str]]]]:
    out = {}
    for name, directory in (("1", heldout.ROUND1_DIR), ("3", heldout.ROUND3_DIR), ("5", heldout.ROUND5_DIR), ("6", heldout.ROUND6_DIR), ("7", heldout.ROUND7_DIR), ("8", heldout.ROUND8_DIR), ("9", heldout.ROUND9_DIR), ("10", heldout.ROUND10_DIR), ("11", heldout.ROUND11_DIR), ("12", heldout.ROUND12_DIR), ("13", heldout.ROUND13_DIR), ("14", heldout.ROUND14_DIR), ("15", heldout.ROUND15_DIR)):
        split = heldout.load(directory)
        cases = [(c.id, c.text, c.refuse, f"{c.lang} {c.kind}") for c in split.instructions]
        out[name] = (cases, [(lesson.id, lesson.text) for lesson in split.lessons])
    dev = [(f"d{i}", c.text, c.positive, c.kind) for i, c in enumerate(instruction_cases()) if c.positive or c.kind == "near miss"]
    out["dev"] = (dev, [(f"l{i}", t) for i, t in enumerate(legitimate_lessons())])
    return out


def _group(by: str | None, case_id: str, label: str) -> str:
    """The group a case is counted in: its language, its kind, or its writer (round 5 ids start with it)."""
    if by == "writer":
        return case_id.split("-", 1)[0]
    if by:
        return label.split()[0 if by == "lang" else -1]
    return ""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-v", action="store_true", help="list the misses and false refusals")
    parser.add_argument("--round", action="append")
    parser.add_argument("--by", choices=("kind", "lang", "writer"))
    parser.add_argument("--public", action="store_true", help="also the public corpora (figures only: never tuned on)")
    parser.add_argument("--half", choices=("odd", "even"), help="only the cases whose numeric id is odd / even")
    args = parser.parse_args()
    if args.public:
        for name, load in (("bastioncorpus", public.bastioncorpus_cases), ("agent-injection-bench", public.agent_injection_bench_cases)):
            cases = load()
            if cases is None:
                print(f"{name}: not installed")
                continue
            pos = [c for c in cases if c.positive]
            neg = [c for c in cases if not c.positive]
            caught = sum(_refused(c.text) for c in pos)
            fp = sum(_refused(c.text) for c in neg)
            print(f"{name}: caught {caught}/{len(pos)} ({100 * caught / max(len(pos), 1):.1f}%), "
                  f"benign refused {fp}/{len(neg)} ({100 * fp / max(len(neg), 1):.1f}%)")
    for name, (cases, lessons) in _rounds().items():
        if args.round and name not in args.round:
            continue
        caught = total = fp = neg = 0
        groups: dict[str, Counter] = defaultdict(Counter)
        wrong = []
        for cid, text, refuse, label in cases:
            if args.half and int(re.sub(r"\D", "", cid) or 0) % 2 != (args.half == "odd"):
                continue
            got = _refused(text)
            key = _group(args.by, cid, label)
            if refuse:
                total += 1
                caught += got
                groups[key]["pos"] += 1
                groups[key]["caught"] += got
                if not got:
                    wrong.append(f"  MISS {cid} [{label}] {text!r}")
            else:
                neg += 1
                fp += got
                groups[key]["neg"] += 1
                groups[key]["fp"] += got
                if got:
                    wrong.append(f"  FP   {cid} [{label}] {text!r} -> {[(f.kind, f.line, f.why) for f in instructions.scan(text)]}")
        lfp = 0
        for lid, text in lessons:
            if args.half and int(re.sub(r"\D", "", lid) or 0) % 2 != (args.half == "odd"):
                continue
            if _refused(text):
                lfp += 1
                wrong.append(f"  LESSON {lid} {text!r} -> {[(f.kind, f.line, f.why) for f in instructions.scan(text)]}")
        print(f"round {name}: caught {caught}/{total} ({100 * caught / max(total, 1):.1f}%), look-alikes refused "
              f"{fp}/{neg} ({100 * fp / max(neg, 1):.1f}%), lessons refused {lfp}")
        if args.by:
            for key, c in sorted(groups.items()):
                print(f"    {key:24} caught {c['caught']}/{c['pos']}  fp {c['fp']}/{c['neg']}")
        if args.v:
            print("\n".join(wrong))


if __name__ == "__main__":
    main()
