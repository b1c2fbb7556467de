"""The frozen held-out split: detector cases written blind, read here and never tuned on.

The files live in ``tests/detection_data/heldout/`` beside a ``MANIFEST.json`` that gives the
sha256 of every file, the date the split was frozen and how it was written. Every text is stored
encoded (``"~"`` + rot13 of ASCII letters, each digit d as (d + 5) % 10), so the repository stays
clean under secret scanners; this module decodes it.

The loader refuses to run on a split that is not the frozen one: a missing file, a file whose
hash differs from the manifest, or a manifest without a hash for a file raises
``HeldOutMismatch``. A case that guided a detector fix has been tuned on: it moves to the
development set (``labelled_sets.py``) and a new blind round, with a new manifest, replaces it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from stores.console_checks.detectors.client_detail import ClientTerm

HELDOUT_DIR = Path(__file__).resolve().parent / "heldout"
# Earlier blind rounds: each was measured once as the held-out split, then tuned on, so they are
# development data now. A new round goes in HELDOUT_DIR; the round it replaces joins this list.
ROUND1_DIR = Path(__file__).resolve().parent / "blind_round1"
ROUND2_DIR = Path(__file__).resolve().parent / "blind_round2"
ROUND3_DIR = Path(__file__).resolve().parent / "blind_round3"
# Rounds written blind as development data from the start (to train and tune on), never held out.
ROUND5_DIR = Path(__file__).resolve().parent / "blind_round5"
ROUND6_DIR = Path(__file__).resolve().parent / "blind_round6"
ROUND7_DIR = Path(__file__).resolve().parent / "blind_round7"
# Measured once as a fresh check of the detector trained on rounds 5 to 7 (see its manifest); development data since.
ROUND8_DIR = Path(__file__).resolve().parent / "blind_round8"
# Measured once as a fresh check of the detector of 2026-12-04 at a71a3fc (see its manifest); development data since.
ROUND9_DIR = Path(__file__).resolve().parent / "blind_round9"
# The same, for round 10, written after round 9 and measured on the same detector.
ROUND10_DIR = Path(__file__).resolve().parent / "blind_round10"
# Measured once as a fresh check of the detector trained with rounds 9 and 10 (main fcabc2e); development data since.
ROUND11_DIR = Path(__file__).resolve().parent / "blind_round11"
# The same, for round 12, written after round 11 and measured on the same detector.
ROUND12_DIR = Path(__file__).resolve().parent / "blind_round12"
# Measured once as the fresh check of the detector trained with rounds 5 to 12 (see its manifest); development data since.
ROUND13_DIR = Path(__file__).resolve().parent / "blind_round13"
# The same, for round 14, written after round 13 and measured on the same detector.
ROUND14_DIR = Path(__file__).resolve().parent / "blind_round14"
# Measured once as the fresh check of the detector trained with rounds 5 to 14 (see its manifest); development data since.
ROUND15_DIR = Path(__file__).resolve().parent / "blind_round15"
DEVELOPMENT_ROUNDS = (ROUND1_DIR, ROUND2_DIR, ROUND3_DIR, ROUND5_DIR, ROUND6_DIR, ROUND7_DIR, ROUND8_DIR, ROUND9_DIR, ROUND10_DIR, ROUND11_DIR, ROUND12_DIR, ROUND13_DIR, ROUND14_DIR, ROUND15_DIR)
MANIFEST = "MANIFEST.json"
FILES = ("instructions.jsonl", "lessons.jsonl", "secrets.jsonl", "client_detail.json", "paths.jsonl")


class HeldOutMismatch(RuntimeError):
    """The held-out files are not the frozen ones the manifest describes."""


def _t(text: str) -> str:
    """The format's own-inverse transform: rot13 on ASCII letters, digits shifted by 5."""
    out = []
    for c in text:
        if "a" <= c <= "z":
            out.append(chr((ord(c) - 97 + 13) % 26 + 97))
        elif "A" <= c <= "Z":
            out.append(chr((ord(c) - 65 + 13) % 26 + 65))
        elif "0" <= c <= "9":
            out.append(str((int(c) + 5) % 10))
        else:
            out.append(c)
    return "".join(out)


def decode(encoded: str) -> str:
    """The plain text of an encoded field ("~" + T(text))."""
    if not encoded.startswith("~"):
        raise HeldOutMismatch(f"An encoded text must start with '~': {encoded[:20]!r}...")
    return _t(encoded[1:])


def encode(text: str) -> str:
    """The stored form of a text (used by tests of the loader itself)."""
    return "~" + _t(text)


@dataclass(frozen=True)
class InstructionCase:
    id: str
    text: str
    refuse: bool
    lang: str
    kind: str


@dataclass(frozen=True)
class LessonCase:
    id: str
    text: str
    folder: str


@dataclass(frozen=True)
class SecretCase:
    id: str
    text: str
    refuse: bool
    family: str
    lang: str


@dataclass(frozen=True)
class ClientDetailCase:
    id: str
    text: str
    store: str  # "agent" (shared across clients) or "project"
    project_key: str | None
    refuse: bool
    kind: str


@dataclass(frozen=True)
class RegisteredClient:
    name: str
    aliases: tuple[str, ...]
    project_keys: tuple[str, ...]
    repositories: tuple[str, ...]
    datasets: tuple[str, ...]
    tables: tuple[str, ...]
    distinctive_tables: tuple[str, ...]

    def terms(self) -> list[ClientTerm]:
        """The client's registry terms, as the console's registry turns a client into terms."""
        kinds = (
            ("client name", (self.name,)),
            ("client alias", self.aliases),
            ("project key", self.project_keys),
            ("repository", self.repositories),
            ("dataset", self.datasets),
            ("table", self.tables),
            ("distinctive table", self.distinctive_tables),
        )
        return [ClientTerm(value, kind, self.name) for kind, values in kinds for value in values]


@dataclass(frozen=True)
class PathCase:
    id: str
    path: str
    store: str
    writer: str
    refuse: bool


@dataclass(frozen=True)
class HeldOut:
    """The whole split, decoded, with the manifest's description of it."""

    frozen: str
    how_written: str
    instructions: tuple[InstructionCase, ...]
    lessons: tuple[LessonCase, ...]
    secrets: tuple[SecretCase, ...]
    registry: tuple[RegisteredClient, ...]
    client_detail: tuple[ClientDetailCase, ...]
    paths: tuple[PathCase, ...]


def available(directory: Path = HELDOUT_DIR) -> bool:
    """Whether a held-out split (with its manifest) is in the repository."""
    return (directory / MANIFEST).is_file()


def _hex(value: str) -> str:
    """A sha256 as bare lower-case hex ("sha256:ab.." and "AB.." both give "ab..")."""
    return value.strip().lower().removeprefix("sha256:")


def _hash_in(manifest: Any, name: str) -> str | None:
    """The sha256 the manifest gives for ``name``, wherever it nests it (a dict by name, or a list of entries)."""
    if isinstance(manifest, dict):
        for key, value in manifest.items():
            if key == name or key.rsplit("/", 1)[-1] == name:
                if isinstance(value, str):
                    return _hex(value)
                if isinstance(value, dict) and isinstance(value.get("sha256"), str):
                    return _hex(value["sha256"])
        if any(str(manifest.get(k, "")).rsplit("/", 1)[-1] == name for k in ("file", "name", "path")):
            if isinstance(manifest.get("sha256"), str):
                return _hex(manifest["sha256"])
        for value in manifest.values():
            if isinstance(value, dict | list):
                found = _hash_in(value, name)
                if found:
                    return found
    elif isinstance(manifest, list):
        for item in manifest:
            found = _hash_in(item, name)
            if found:
                return found
    return None


def _first_text(manifest: dict[str, Any], *keys: str) -> str:
    for key in keys:
        value = manifest.get(key)
        if value:
            return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return ""


def verify(directory: Path = HELDOUT_DIR) -> dict[str, Any]:
    """Check every file against the manifest's sha256; return the manifest, or raise HeldOutMismatch."""
    manifest_path = directory / MANIFEST
    if not manifest_path.is_file():
        raise HeldOutMismatch(f"No {MANIFEST} in {directory}: the held-out split is not in the repository.")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    problems = []
    listed = [name for name in FILES if _hash_in(manifest, name) is not None]
    if not listed:
        problems.append("the manifest gives no sha256 for any case file")
    for name in FILES:
        expected = _hash_in(manifest, name)
        path = directory / name
        if expected is None:
            if path.is_file():
                problems.append(f"{name}: present, but the manifest gives no sha256")
        elif not path.is_file():
            problems.append(f"{name}: missing")
        else:
            actual = hashlib.sha256(path.read_bytes()).hexdigest()
            if actual != expected:
                problems.append(f"{name}: sha256 {actual[:12]}..., the manifest says {expected[:12]}...")
    if problems:
        raise HeldOutMismatch("The held-out split is not the frozen one: " + "; ".join(problems) + ".")
    return manifest


def _jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise HeldOutMismatch(f"{path.name} line {number} is not JSON: {exc}") from exc
    return rows


def _label(row: dict[str, Any]) -> bool:
    label = row.get("label")
    if label not in ("refuse", "accept"):
        raise HeldOutMismatch(f"Case {row.get('id')} has label {label!r}; expected 'refuse' or 'accept'.")
    return label == "refuse"


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in (value or []) if isinstance(v, str) and v.strip())


def _rows(directory: Path, name: str) -> list[dict[str, Any]]:
    """The rows of one case file; none when the split does not hold that file (the manifest lists what it holds)."""
    path = directory / name
    return _jsonl(path) if path.is_file() else []


def load(directory: Path = HELDOUT_DIR) -> HeldOut:
    """The verified, decoded split in ``directory``. Raises HeldOutMismatch if it is not the frozen one.

    A split may hold only some of the case files (a later blind round can replace one check's
    cases); the files it does not hold give no cases.
    """
    manifest = verify(directory)
    instructions = tuple(
        InstructionCase(r["id"], decode(r["text"]), _label(r), r.get("lang", ""), r.get("kind", ""))
        for r in _rows(directory, "instructions.jsonl")
    )
    lessons = []
    for r in _rows(directory, "lessons.jsonl"):
        if _label(r):
            raise HeldOutMismatch(f"Lesson {r['id']} is labelled refuse; every lesson is to be accepted.")
        lessons.append(LessonCase(r["id"], decode(r["text"]), r.get("folder", "")))
    secrets = tuple(
        SecretCase(r["id"], decode(r["text"]), _label(r), r.get("family", ""), r.get("lang", ""))
        for r in _rows(directory, "secrets.jsonl")
    )
    client_path = directory / "client_detail.json"
    client = json.loads(client_path.read_text(encoding="utf-8")) if client_path.is_file() else {"registry": [], "cases": []}
    registry = tuple(
        RegisteredClient(
            name=c["name"],
            aliases=_strings(c.get("aliases")),
            project_keys=_strings(c.get("project_keys")),
            repositories=_strings(c.get("repositories")),
            datasets=_strings(c.get("datasets")),
            tables=_strings(c.get("tables")),
            distinctive_tables=_strings(c.get("distinctive_tables")),
        )
        for c in client["registry"]
    )
    cases = []
    for r in client["cases"]:
        if r.get("store") not in ("agent", "project"):
            raise HeldOutMismatch(f"Client-detail case {r.get('id')} has store {r.get('store')!r}.")
        cases.append(
            ClientDetailCase(r["id"], decode(r["text"]), r["store"], r.get("project_key"), _label(r), r.get("kind", ""))
        )
    paths = tuple(
        PathCase(r["id"], r["path"], r.get("store", "project"), r.get("writer", ""), _label(r))
        for r in _rows(directory, "paths.jsonl")
    )
    return HeldOut(
        frozen=_first_text(manifest, "frozen_on", "frozen", "frozen_at", "frozen_date", "date"),
        how_written=_first_text(manifest, "how_written", "how", "written", "method", "provenance"),
        instructions=instructions,
        lessons=tuple(lessons),
        secrets=secrets,
        registry=registry,
        client_detail=tuple(cases),
        paths=paths,
    )


@lru_cache(maxsize=1)
def load_cached() -> HeldOut:
    """``load()`` once per process (the benchmark reads the split several times)."""
    return load()
