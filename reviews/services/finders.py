"""The proposals a review makes with no model: set-aside merges, near-duplicates, stale names and
notes close to a standing decision or the governance template.

The review reads the store's live notes once, as a stream, and hands each to every finder's
``visit``; a finder keeps only what it needs (a signature, a match), not the notes' text, so a
review's memory grows with the number of notes by a few hundred bytes each. ``drafts()`` then
returns its proposals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings

from runs.models import RunRecord
from stores.errors import ConsoleError
from stores.models import Client, Memory, SetAside, SetAsideStatus, StandingDecision, Store, StoreKind
from stores.services.merging import set_aside_merge_proposal

from .drafts import Draft, Note, base_of
from .similarity import (
    LshIndex,
    best_passage,
    containment,
    fold_texts,
    groups_of,
    jaccard,
    shingles,
    signature,
)

# A quote in evidence is at most this long.
QUOTE_CHARS = 300
# The fewest shingles two texts must share before a decision flag is raised (a three-word note
# sharing its one shingle with a decision is no evidence).
DECISION_MIN_SHARED = 4
DECISION_FLAG = (
    "A similarity flag for a person to look at, not a claim that the note contradicts it. A standing "
    "decision and the governance template bind the agents; a note never overrides them."
)


class Finder:
    """One kind of proposal: sees each note once, then drafts its proposals."""

    def visit(self, note: Note) -> None:  # pragma: no cover - default: the finder reads no notes
        return None

    def drafts(self) -> list[Draft]:  # pragma: no cover - abstract
        raise NotImplementedError


# Set-aside texts that merge cleanly.


class SetAsideFinder(Finder):
    """Open set-aside texts whose three-way merge onto the saved copy has no conflict."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def drafts(self) -> list[Draft]:
        drafts: list[Draft] = []
        open_ids = SetAside.objects.filter(store=self.store, status=SetAsideStatus.OPEN).order_by("created_at", "id")
        for set_aside_id in open_ids.values_list("public_id", flat=True):
            try:
                proposal = set_aside_merge_proposal(store=self.store, set_aside_id=set_aside_id)
            except ConsoleError:
                continue  # its memory was deleted or redacted: nothing to merge onto
            memory, result = proposal.memory, proposal.result
            if result.conflicts or result.text == memory.content:
                continue
            set_aside = proposal.set_aside
            who = (set_aside.created_by or {}).get("name", "another writer")
            how = "two-way (no common ancestor is known)" if result.two_way else (
                f"three-way, on version {proposal.base_version_id}"
            )
            note = Note(memory.pk, memory.public_id, memory.path, memory.content, memory.content_sha256,
                        memory.head_version_id, memory.updated_at)
            drafts.append(Draft(
                kind="merge_set_aside",
                memory_ids=[memory.public_id],
                paths=[memory.path],
                evidence={
                    "summary": f"The text {who} wrote on {set_aside.created_at:%Y-%m-%d %H:%M} UTC lost a race and "
                    f"was kept aside; it merges cleanly onto the saved copy ({how}).",
                    "set_aside_id": set_aside.public_id,
                    "written_by": who,
                    "kept_at": set_aside.created_at.isoformat(),
                    "base_version_id": proposal.base_version_id,
                    "saved_version_id": memory.head_version_id,
                    "two_way": result.two_way,
                },
                proposed_text=result.text,
                base=base_of([note], set_aside_id=set_aside.public_id),
            ))
        return drafts


# Near-duplicates.


class DuplicateFinder(Finder):
    """Near-duplicate notes: MinHash with LSH banding for candidates, exact shingle Jaccard to decide."""

    def __init__(self, store: Store, threshold: float | None = None) -> None:
        self.store = store
        self.threshold = settings.REVIEW_DUPLICATE_THRESHOLD if threshold is None else threshold
        self.index = LshIndex()
        # Each note's text hash as it was read (to notice a write before the candidates are read again).
        self.seen: dict[int, str] = {}

    def visit(self, note: Note) -> None:
        sig = signature(note.shingles)
        if sig is None:
            return
        self.seen[note.pk] = note.sha256
        self.index.add(note.pk, sig)

    def drafts(self) -> list[Draft]:
        pairs = self.index.candidate_pairs()
        if not pairs:
            return []
        # Only the candidates' texts are read again, to measure each pair exactly.
        wanted = sorted({pk for pair in pairs for pk in pair})
        texts: dict[int, Memory] = {}
        for start in range(0, len(wanted), 500):
            for memory in Memory.objects.filter(pk__in=wanted[start : start + 500], deleted_at__isnull=True):
                if memory.content_sha256 == self.seen[memory.pk]:  # unchanged since it was read
                    texts[memory.pk] = memory
        sets = {pk: shingles(m.content) for pk, m in texts.items()}
        close: dict[tuple[int, int], float] = {}
        for a, b in sorted(pairs):
            if a in sets and b in sets:
                score = jaccard(sets[a], sets[b])
                if score >= self.threshold:
                    close[(a, b)] = score
        drafts = []
        for group in groups_of(close):
            drafts.append(self._draft([texts[pk] for pk in group], close))
        return drafts

    def _draft(self, members: list[Memory], close: dict[tuple[int, int], float]) -> Draft:
        # The note kept: the longest text, then the newest, then the first path.
        kept = sorted(members, key=lambda m: (-len(m.content), -m.updated_at.timestamp(), m.path))[0]
        others = sorted((m for m in members if m.pk != kept.pk), key=lambda m: m.path)
        ordered = [kept, *others]
        by_pk = {m.pk: m for m in members}
        pair_list = [
            {"memory_ids": [by_pk[a].public_id, by_pk[b].public_id], "paths": [by_pk[a].path, by_pk[b].path],
             "similarity": round(score, 3)}
            for (a, b), score in sorted(close.items()) if a in by_pk and b in by_pk
        ]
        scores = [p["similarity"] for p in pair_list]
        low, high = min(scores), max(scores)
        share = f"{low:.2f}" if low == high else f"{low:.2f} to {high:.2f}"
        notes = [Note(m.pk, m.public_id, m.path, m.content, m.content_sha256, m.head_version_id, m.updated_at)
                 for m in ordered]
        return Draft(
            kind="duplicates",
            memory_ids=[m.public_id for m in ordered],
            paths=[m.path for m in ordered],
            evidence={
                "summary": f"{len(ordered)} notes share most of their wording (word-shingle similarity {share}; "
                f"threshold {self.threshold:.2f}). Folding keeps {kept.path}, the longest, adds the lines "
                "only the others have, and deletes the others.",
                "threshold": self.threshold,
                "kept": {"memory_id": kept.public_id, "path": kept.path},
                "pairs": pair_list,
            },
            proposed_text=fold_texts(kept.content, [m.content for m in others]),
            base=base_of(notes),
        )


# Names the registry removed.


@dataclass(frozen=True)
class RemovedName:
    """A name taken out of a client's registry entry (and not put back), when and by whom."""

    kind: str  # repository, dataset, table, distinctive table
    name: str
    client: str
    removed_at: datetime
    removed_by: str

    def as_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "name": self.name, "client": self.client,
                "removed_at": self.removed_at.isoformat(), "removed_by": self.removed_by}


_REGISTRY_FIELDS = (("repositories", "repository"), ("datasets", "dataset"), ("tables", "table"),
                    ("distinctive_tables", "distinctive table"))


def _names_of(record) -> dict[tuple[str, str], str]:
    """(kind, lower-cased name) -> name as written, for one historical record of a client."""
    names: dict[tuple[str, str], str] = {}
    if record is None or record.history_type == "-":
        return names
    for field, kind in _REGISTRY_FIELDS:
        for name in getattr(record, field) or []:
            if isinstance(name, str) and name.strip():
                names[(kind, name.strip().lower())] = name.strip()
    return names


def removed_registry_names(clients) -> list[RemovedName]:
    """What each client's registry entry lost over its history and has not regained.

    The registry keeps every version of a client (simple-history): a name in one version and not
    in the next was removed then, by that version's person; a name put back later is not removed.
    """
    removed: list[RemovedName] = []
    for client_id, client_name in clients:
        history = Client.history.filter(id=client_id).select_related("history_user").order_by("history_date", "history_id")
        gone: dict[tuple[str, str], RemovedName] = {}
        previous: dict[tuple[str, str], str] = {}
        for record in history:
            current = _names_of(record)
            for key, name in previous.items():
                if key not in current:
                    who = record.history_user.get_username() if record.history_user else ""
                    gone[key] = RemovedName(key[0], name, record.name or client_name, record.history_date, who)
            for key in current:
                gone.pop(key, None)
            previous = current
        removed += sorted(gone.values(), key=lambda r: (r.removed_at, r.kind, r.name))
    return removed


def _name_pattern(name: str) -> str:
    # Not part of a longer name: no word character or dotted part on either side.
    return rf"(?<![\w.\-/]){re.escape(name)}(?![\w\-/]|\.\w)"


class StaleFinder(Finder):
    """Notes that name a repository, dataset or table a client's registry entry no longer lists."""

    def __init__(self, store: Store) -> None:
        clients = Client.objects.all()
        if store.kind == StoreKind.PROJECT and store.project_id:
            clients = clients.filter(pk=store.project.client_id)
        self.removed = removed_registry_names(list(clients.values_list("pk", "name")))
        self.by_lower = {r.name.lower(): r for r in self.removed}
        names = sorted(self.by_lower, key=len, reverse=True)  # the longest name wins an overlap
        self.pattern = re.compile("|".join(_name_pattern(n) for n in names), re.IGNORECASE) if names else None
        self.found: list[Draft] = []

    def visit(self, note: Note) -> None:
        if self.pattern is None:
            return
        hits: dict[str, RemovedName] = {}
        quotes: list[str] = []
        for line in note.content.splitlines():
            matched = [m.group(0).lower() for m in self.pattern.finditer(line)]
            if matched:
                hits.update({name: self.by_lower[name] for name in matched})
                if len(quotes) < 5:
                    quotes.append(line.strip()[:QUOTE_CHARS])
        if not hits:
            return
        named = sorted(hits.values(), key=lambda r: (r.removed_at, r.name))
        parts = [
            f"{r.name} ({r.kind}, removed from {r.client}'s registry entry on {r.removed_at:%Y-%m-%d}"
            + (f" by {r.removed_by}" if r.removed_by else "") + ")"
            for r in named
        ]
        self.found.append(Draft(
            kind="stale",
            memory_ids=[note.memory_id],
            paths=[note.path],
            evidence={
                "summary": "Names what the registry no longer lists: " + "; ".join(parts) + ". Adopting deletes the note.",
                "removed": [r.as_dict() for r in named],
                "quotes": quotes,
            },
            base=base_of([note]),
        ))

    def drafts(self) -> list[Draft]:
        return self.found


# Close to a standing decision or the governance template.


@dataclass(frozen=True)
class _Source:
    kind: str  # standing_decision, governance_template
    title: str
    text: str
    shingles: frozenset[str]
    ref: str  # the decision's id, or the template's paragraph number


def decision_sources(store: Store) -> list[_Source]:
    """A project store's standing decisions (whole) and governance template (paragraph by paragraph)."""
    if store.kind != StoreKind.PROJECT or not store.project_id:
        return []
    sources = []
    for decision in StandingDecision.objects.filter(project_id=store.project_id).order_by("created_at", "id"):
        sources.append(_Source("standing_decision", decision.title, decision.text,
                               frozenset(shingles(decision.text)), str(decision.pk)))
    template = store.project.governance_template or ""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", template) if p.strip()]
    for n, paragraph in enumerate(paragraphs, 1):
        sh = frozenset(shingles(paragraph))
        if len(sh) >= DECISION_MIN_SHARED:
            sources.append(_Source("governance_template", f"governance template, paragraph {n}", paragraph, sh, str(n)))
    return sources


class DecisionFinder(Finder):
    """Notes close in wording to a standing decision or a paragraph of the governance template.

    The score is the larger share of either text's shingles found in the other (a short note
    restating part of a long template counts), once they share DECISION_MIN_SHARED shingles.
    """

    def __init__(self, store: Store, threshold: float | None = None) -> None:
        self.sources = decision_sources(store)
        self.threshold = settings.REVIEW_DECISION_THRESHOLD if threshold is None else threshold
        self.found: list[Draft] = []

    def visit(self, note: Note) -> None:
        if not self.sources:
            return
        sh = note.shingles
        best: tuple[float, _Source] | None = None
        for source in self.sources:
            shared = len(sh & source.shingles)
            if shared < DECISION_MIN_SHARED:
                continue
            score = max(containment(sh, source.shingles), containment(source.shingles, sh))
            if score >= self.threshold and (best is None or score > best[0]):
                best = (score, source)
        if best is None:
            return
        score, source = best
        what = f"the standing decision “{source.title}”" if source.kind == "standing_decision" else f"the {source.title}"
        self.found.append(Draft(
            kind="decision",
            memory_ids=[note.memory_id],
            paths=[note.path],
            evidence={
                "summary": f"Close in wording to {what} ({score:.0%} of the shorter text's three-word phrases are in "
                "the other). " + DECISION_FLAG + " Adopting deletes the note; the decision stays as it is.",
                "similarity": round(score, 3),
                "threshold": self.threshold,
                "source": {"kind": source.kind, "title": source.title, "ref": source.ref,
                           "quote": best_passage(source.text, sh, max_chars=QUOTE_CHARS)},
                "note_quote": best_passage(note.content, set(source.shingles), max_chars=QUOTE_CHARS),
                "flag": DECISION_FLAG,
            },
            base=base_of([note]),
        ))

    def drafts(self) -> list[Draft]:
        return self.found


def finders_for(store: Store) -> list[Finder]:
    """Every model-free finder, in the order their proposals are listed."""
    return [SetAsideFinder(store), DuplicateFinder(store), StaleFinder(store), DecisionFinder(store)]


def recent_run_records(store: Store, limit: int | None = None) -> list[dict[str, Any]]:
    """A project store's most recent run records (newest first), for the model pass as context."""
    if store.kind != StoreKind.PROJECT or not store.project_id:
        return []
    limit = settings.REVIEW_RUN_RECORDS if limit is None else limit
    rows = (
        RunRecord.objects.filter(project_id=store.project_id)
        .select_related("run")
        .order_by("-created_at", "-id")[:limit]
    )
    return [
        {"run_id": r.run.public_id, "ticket_key": r.run.ticket_key, "created_at": r.created_at.isoformat(),
         "excerpt": r.transcript[-settings.REVIEW_RUN_RECORD_CHARS :]}
        for r in rows
    ]
