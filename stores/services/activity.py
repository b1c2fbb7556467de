"""What happened in the stores: versions, deletions, restores, redactions, set-aside texts and
refusals, newest first, as one list (reads only; the console's activity pages call this).

Refusals are listed with their reason code and how many times they were refused, never the
refused text (which was never kept). Each kind is read newest first with the same filters and
the lists are merged, so a page costs one bounded query per kind.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from stores.models import Memory, Refusal, SetAside, SetAsideStatus

# What an event is, in the words the pages show.
CREATED, CHANGED, DELETED, RESTORED = "created", "changed", "deleted", "restored"
REDACTED, VERSION_REDACTED = "redacted", "version redacted"
SET_ASIDE, SET_ASIDE_DISMISSED, REFUSED = "set aside", "set-aside dismissed", "refused"


@dataclass(frozen=True)
class ActivityFilters:
    """Who, which runs, and which days (both included); all optional.

    ``run_ids`` are the runs' public ids when the reader picked runs (by run or by ticket; the
    caller resolves them, since the stores core knows nothing of runs), None when not.
    """

    store_ids: list[int]
    writer: str = ""
    run_ids: frozenset[str] | None = None
    after: date | None = None
    before: date | None = None


@dataclass(frozen=True)
class Event:
    """One thing that happened. ``memory_id`` and ``path`` are blank where a redaction took them."""

    at: datetime
    kind: str
    store_id: int
    actor: dict[str, Any] | None
    memory_id: str = ""
    path: str = ""
    version_id: str = ""
    why: str = ""
    code: str = ""
    times: int = 0
    set_aside_id: str = ""
    run_id: str = ""


@dataclass
class ActivityPage:
    events: list[Event] = field(default_factory=list)
    more: bool = False
    refusal_counts: list[tuple[str, int]] = field(default_factory=list)  # code, times refused


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min), timezone.get_current_timezone())


def _narrow(qs: QuerySet, filters: ActivityFilters, *, at: str, actor: str, run: str | None,
            run_ids: set[str] | None) -> QuerySet:
    qs = qs.filter(store_id__in=filters.store_ids)
    if filters.writer:
        qs = qs.filter(**{f"{actor}__name__iexact": filters.writer.strip()})
    if run_ids is not None:
        qs = qs.filter(**{f"{run}__in": run_ids}) if run else qs.none()
    if filters.after:
        qs = qs.filter(**{f"{at}__gte": _day_start(filters.after)})
    if filters.before:
        qs = qs.filter(**{f"{at}__lt": _day_start(filters.before + timedelta(days=1))})
    return qs.order_by(f"-{at}", "-pk")


def _versions(filters: ActivityFilters, run_ids, n: int) -> Iterable[Event]:
    qs = _narrow(Memory.history.all(), filters, at="history_date", actor="actor", run="run_public_id",
                 run_ids=run_ids)
    for v in qs[:n].iterator():
        if v.operation == "deleted":
            kind = DELETED
        elif v.operation == "created":
            # A restore writes a "created" version that keeps the memory's first creation time.
            kind = RESTORED if v.created_at and v.updated_at and v.created_at != v.updated_at else CREATED
        else:
            kind = CHANGED
        yield Event(at=v.history_date, kind=kind, store_id=v.store_id, actor=v.actor, memory_id=v.public_id,
                    path=v.path, version_id=v.version_id, why=v.history_change_reason or "",
                    run_id=v.run_public_id)


def _version_redactions(filters: ActivityFilters, run_ids, n: int) -> Iterable[Event]:
    # One version redacted on its own (the memory itself was not): the whole-memory redaction is
    # one event of its own below.
    qs = _narrow(
        Memory.history.filter(version_redacted_at__isnull=False),
        filters, at="version_redacted_at", actor="version_redacted_by", run=None, run_ids=run_ids,
    )
    redacted_memories = set(Memory.objects.filter(redacted_at__isnull=False).values_list("pk", flat=True))
    for v in qs[:n].iterator():
        if v.id in redacted_memories:
            continue
        yield Event(at=v.version_redacted_at, kind=VERSION_REDACTED, store_id=v.store_id,
                    actor=v.version_redacted_by, memory_id=v.public_id, version_id=v.version_id)


def _redactions(filters: ActivityFilters, run_ids, n: int) -> Iterable[Event]:
    qs = _narrow(Memory.objects.filter(redacted_at__isnull=False), filters, at="redacted_at", actor="redacted_by",
                 run=None, run_ids=run_ids)
    for m in qs[:n].iterator():
        yield Event(at=m.redacted_at, kind=REDACTED, store_id=m.store_id, actor=m.redacted_by, memory_id=m.public_id)


def _set_asides(filters: ActivityFilters, run_ids, n: int) -> Iterable[Event]:
    qs = _narrow(SetAside.objects.select_related("memory"), filters, at="created_at", actor="created_by",
                 run="created_by__session_id", run_ids=run_ids)
    for sa in qs[:n].iterator():
        yield Event(at=sa.created_at, kind=SET_ASIDE, store_id=sa.store_id, actor=sa.created_by,
                    memory_id=sa.memory.public_id, path=sa.path, set_aside_id=sa.public_id,
                    run_id=(sa.created_by or {}).get("session_id", ""))


def _dismissals(filters: ActivityFilters, run_ids, n: int) -> Iterable[Event]:
    qs = _narrow(SetAside.objects.select_related("memory").filter(status=SetAsideStatus.DISMISSED,
                                                                 resolved_at__isnull=False),
                 filters, at="resolved_at", actor="resolved_by", run=None, run_ids=run_ids)
    for sa in qs[:n].iterator():
        yield Event(at=sa.resolved_at, kind=SET_ASIDE_DISMISSED, store_id=sa.store_id, actor=sa.resolved_by,
                    memory_id=sa.memory.public_id, path=sa.path, set_aside_id=sa.public_id)


def _refusals_qs(filters: ActivityFilters, run_ids) -> QuerySet[Refusal]:
    return _narrow(Refusal.objects.all(), filters, at="last_seen_at", actor="writer", run="run_public_id",
                   run_ids=run_ids)


def _refusals(filters: ActivityFilters, run_ids, n: int) -> Iterable[Event]:
    # A refusal row counts its repeats; it is listed when it was last refused, with the count.
    for r in _refusals_qs(filters, run_ids)[:n].iterator():
        yield Event(at=r.last_seen_at, kind=REFUSED, store_id=r.store_id, actor=r.writer, path=r.path,
                    code=r.code, times=r.times, run_id=r.run_public_id)


SOURCES = (_versions, _version_redactions, _redactions, _set_asides, _dismissals, _refusals)


def activity(filters: ActivityFilters, *, page: int = 1, per_page: int = 100) -> ActivityPage:
    """One page of what happened in these stores, newest first, with refusal counts by reason code."""
    if not filters.store_ids:
        return ActivityPage()
    page = max(1, page)
    run_ids = filters.run_ids
    wanted = page * per_page + 1
    streams = [list(source(filters, run_ids, wanted)) for source in SOURCES]
    merged = heapq.merge(*streams, key=lambda e: e.at, reverse=True)
    events = [e for _, e in zip(range(wanted), merged, strict=False)]
    counts: Counter[str] = Counter()
    for code, times in _refusals_qs(filters, run_ids).values_list("code", "times"):
        counts[code] += times
    start = (page - 1) * per_page
    return ActivityPage(
        events=events[start:start + per_page],
        more=len(events) > start + per_page,
        refusal_counts=sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])),
    )


def run_activity(run_id: str) -> tuple[list[Event], list[Refusal]]:
    """What one run (by public id) wrote, its versions and set-aside texts, and what it had refused."""
    versions = [
        Event(at=v.history_date, kind=DELETED if v.operation == "deleted" else (CREATED if v.operation == "created"
                                                                                 else CHANGED),
              store_id=v.store_id, actor=v.actor, memory_id=v.public_id, path=v.path, version_id=v.version_id,
              why=v.history_change_reason or "", run_id=run_id)
        for v in Memory.history.filter(run_public_id=run_id).order_by("-history_date", "-history_id")
    ]
    set_asides = [
        Event(at=sa.created_at, kind=SET_ASIDE, store_id=sa.store_id, actor=sa.created_by,
              memory_id=sa.memory.public_id, path=sa.path, set_aside_id=sa.public_id, run_id=run_id)
        for sa in SetAside.objects.select_related("memory").filter(created_by__session_id=run_id)
    ]
    events = sorted(versions + set_asides, key=lambda e: e.at, reverse=True)
    refusals = list(Refusal.objects.filter(run_public_id=run_id).order_by("-last_seen_at", "-pk"))
    return events, refusals
