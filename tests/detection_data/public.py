"""Public corpora the detectors are evaluated on, read from installed PyPI packages (the ``eval`` extra).

Nothing here is copied into the repository; nothing is trained or tuned on these (the corpora
kept for training are others; see the instructions classifier's training script). Licences
were checked on each package's own metadata:

- ``bastioncorpus`` 0.6.0 (MIT): a labelled prompt-injection corpus, ``malicious`` and ``benign``
  rows, several languages, read with its own ``load_corpus()``.
- ``agent-injection-bench`` 0.1.0 (MIT): indirect injections (the ``injected`` text an agent
  would read), and control cases that only look like one; read with ``aib.dataset.load``.
- ``classifinder-engine`` 0.1.2 (MIT): a maintained secret-format rule set (about 100 formats,
  about 60 providers). It ships no samples, so one value per rule and seed is made from each
  rule's own regex with ``rstr`` (BSD); the rule set's ``known_test_values`` (providers'
  documented example keys) are the benign side: a whole documented example value must pass.

Each loader returns None when its package is not installed: ``pip install -e '.[eval]'``.
"""

from __future__ import annotations

import importlib.util
import random
import re
from dataclasses import dataclass
from importlib import resources

INSTALL_HINT = "pip install -e '.[eval]'"


@dataclass(frozen=True)
class PublicCase:
    """One labelled public text; ``positive`` means a detector must refuse it."""

    text: str
    positive: bool
    source: str
    kind: str


def installed(package: str) -> bool:
    """Whether a corpus package is importable here."""
    return importlib.util.find_spec(package) is not None


def bastioncorpus_cases() -> list[PublicCase] | None:
    """bastioncorpus's rows: malicious ones must be refused, benign ones must pass."""
    if not installed("bastioncorpus"):
        return None
    from bastioncorpus import load_corpus

    return [
        PublicCase(row.text, row.is_malicious, "bastioncorpus", f"{row.category} ({row.lang})")
        for row in load_corpus()
    ]


def agent_injection_bench_cases() -> list[PublicCase] | None:
    """agent-injection-bench's injected texts (refuse) and control texts (pass).

    Its "baseline" case is the payload typed by the user in-band, "not an injection" by the
    corpus's own label but an order to an agent all the same: it is left out, not counted either way.
    """
    if not installed("aib"):
        return None
    from aib.dataset import load

    path = resources.files("aib").joinpath("data/attacks.jsonl")
    with resources.as_file(path) as file:
        attacks = load(file)
    return [
        PublicCase(a.injected, not a.is_control, "agent-injection-bench", a.family)
        for a in attacks
        if a.family != "baseline"
    ]


# Notes a value is written into: a lesson line, then the value on its own line, as a note would.
_SECRET_FRAMES = [
    "Deploy notes for the nightly load.\n\n{value}\n",
    "The failing job had this in its environment:\n\n```\n{value}\n```\n",
    "Found while debugging the export: {value}\n",
]


def classifinder_secret_cases(per_rule: int = 3, seed: int = 20261201) -> list[PublicCase] | None:
    """One value per rule and frame, made from each classifinder-engine secret rule's regex (refuse),
    and each rule's documented example values (pass)."""
    if not installed("classifinder_engine") or not installed("rstr"):
        return None
    import classifinder_engine.scanner  # noqa: F401  (importing the scanner registers every rule)
    import rstr
    from classifinder_engine.patterns.registry import PATTERN_REGISTRY

    rng = random.Random(seed)
    maker = rstr.Rstr(rng)
    cases: list[PublicCase] = []
    for rule in PATTERN_REGISTRY:
        if rule.provider == "prompt_injection":
            continue  # the rule set also has injection rules: not secrets
        for frame in _SECRET_FRAMES[:per_rule]:
            value = None
            for _ in range(5):
                try:
                    made = maker.xeger(rule.regex.pattern)
                except (ValueError, IndexError, OverflowError):
                    break
                # Whitespace classes yield vertical tabs and form feeds; a note would hold spaces.
                made = re.sub(r"[\t\r\x0b\x0c]", " ", made).replace("\n", " ")
                if rule.regex.search(made):
                    value = made
                    break
            if value is not None:
                cases.append(PublicCase(frame.format(value=value), True, "classifinder-engine", rule.provider))
        for example in sorted(rule.known_test_values):
            text = f"The provider's documentation shows the example key {example} for this call.\n"
            cases.append(PublicCase(text, False, "classifinder-engine", f"{rule.provider} documented example"))
    return cases
