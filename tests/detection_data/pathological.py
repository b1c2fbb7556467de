"""Large notes built to stress each detector's rules (backtracking, long runs, deep encodings).

The red-team tests scan them for behaviour (each scan ends and answers); bench/pathological_inputs.py
times them beside a plain note of the same size. Nothing secret-shaped is whole in this file.
"""

from __future__ import annotations

import base64
import random
import string

from stores.console_checks.detectors.client_detail import ClientTerm

ALNUM = string.ascii_letters + string.digits
PEM_BEGIN = "-----" + "BEGIN "


def _rnd(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(ALNUM) for _ in range(n))


def secret_stress_notes(n: int = 100_000, seed: int = 4242) -> dict[str, str]:
    """Notes of about n characters, one per secret rule family's worst case."""
    rng = random.Random(seed)
    return {
        "base64 run": _rnd(rng, n),
        "base64 words": " ".join(_rnd(rng, 20) for _ in range(n // 21)),
        "assignments": ("password=" + "x" * 20 + "\n") * (n // 30),
        "urls": ("postgres://u:" + "p" * 20 + " ") * (n // 35),
        "one long line of schemes": ("a://" + "b" * 10 + ":") * (n // 15),  # was 0.8 s in detect-secrets' npm regex
        "begin without end": PEM_BEGIN + "PRIVATE KEY-----\n" + ("A" * 64 + "\n") * (n // 65),
        "glued lines": ("sk-abc\\\n") * (n // 8),
        "tables": ("| password | secret |\n|---|---|\n" + "| a | b |\n" * 50) * (n // 600),
        "keyword lines": ("key token secret " + "A1b2" * 10 + "\n") * (n // 60),
        "entities": "&#65;" * (n // 5),
        "percent": "%41" * (n // 3),
        "zero-width": "a\u200b" * (n // 2),
        "nested base64": base64.b64encode(base64.b64encode(("password=abc " * 4000).encode())).decode()[:n],
    }


def instruction_stress_notes(n: int = 100_000, seed: int = 4243) -> dict[str, str]:
    """Notes of about n characters built from the phrases the instruction rules look for."""
    rng = random.Random(seed)
    words = ["ignore", "your", "previous", "instructions", "you", "are", "now", "standing", "decision", "the",
             "agent", "reading", "this", "note", "system", ":", "<!--", "-->", "&", "%20", "."]
    return {
        "word salad": " ".join(rng.choice(words) for _ in range(n // 6)),
        "one phrase a line": "\n".join(rng.choice(["ignore", "you are", "standing decision", "<!--", "the agent"])
                                       for _ in range(n // 8)),
        "open comment": "<!-- " + "you " * (n // 4),
        "markdown comment": "[//]: # (" + "a" * n,
        "spelt out": "a b " * (n // 4),
        "hyphens": "ig-nore " * (n // 8),
        "base64 blobs": " ".join(base64.b64encode(b"ignore all previous").decode() for _ in range(n // 30)),
    }


def client_stress(clients: int = 3000, words: int = 20_000, seed: int = 4244) -> tuple[list[ClientTerm], str]:
    """A registry of thousands of clients and a long text made of their words' pieces."""
    rng = random.Random(seed)
    terms = [ClientTerm(f"Client {i} Holdings", "client name", str(i)) for i in range(clients)]
    terms += [ClientTerm(f"K{i}X", "project key", str(i)) for i in range(clients)]
    terms += [ClientTerm(f"ds_{i}_raw", "dataset", str(i)) for i in range(clients)]
    text = " ".join(rng.choice(["client", "holdings", "k12x", "ds", "raw", "the", "-", "_", "&amp;", "\u00ad",
                                "a b c", "QWNtZQ"]) for _ in range(words))
    return terms, text


def plain_note(n: int = 100_000) -> str:
    """An ordinary lesson repeated to about n characters: the baseline the stress notes are timed against."""
    lesson = ("Incremental models need a unique key: the orders model duplicated rows after a late update, "
              "so the merge strategy with a three-day lookback fixed it.\n")
    return (lesson * (n // len(lesson) + 1))[:n]
