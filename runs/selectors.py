"""Reads about runs, scoped to who asks, and the run's view of its stores (snapshot and change feed)."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from django.db.models import Q, QuerySet

from stores.access import stores_person_manages
from stores.console_checks.request import Writer
from stores.errors import InvalidRequest, NotFound
from stores.models import Memory, Refusal, SetAside, Store, StoreKind

from .models import Run, RunRecord

# One change-feed answer carries at most this many memories (their full text); the rest follow
# at once with `more: true`.
CHANGES_PAGE = 500


def run_for_token_hash(digest: str) -> Run | None:
    """The run whose token this is, while the token still works.

    A run token works until the run ends or, where a lesson prompt is open, until it is
    answered (or closed unanswered).
    """
    return (
        Run.objects.select_related("agent", "project")
        .filter(token_hash=digest)
        .filter(
            Q(ended_at__isnull=True)
            | Q(lesson_prompted_at__isnull=False, lesson_answered_at__isnull=True,
                lesson_closed_unanswered_at__isnull=True)
        )
        .first()
    )


def runs_for_writer(writer: Writer) -> QuerySet[Run]:
    """The runs this caller may see: an agent its own, a run token its run, admins every run."""
    qs = Run.objects.select_related("agent", "project", "project__client")
    if writer.run is not None:
        return qs.filter(pk=writer.run.pk)
    if writer.is_agent:
        return qs.filter(agent=writer.agent)
    if writer.is_admin:
        return qs
    return qs.none()


def run_for_writer(writer: Writer, run_id: str) -> Run:
    """The run, or 404 when it does not exist or the caller may not see it (the same answer)."""
    if writer.run is not None and writer.run.public_id == run_id:
        return writer.run  # the run token's own run, read fresh when the token was checked
    run = runs_for_writer(writer).filter(public_id=run_id).first()
    if run is None:
        raise NotFound(f"No run {run_id}.")
    return run


def run_for_agent(writer: Writer, run_id: str) -> Run:
    """The run, for its own agent (its token or the run's); people and other agents get 404."""
    if not writer.is_agent:
        raise NotFound(f"No run {run_id}.")
    return run_for_writer(writer, run_id)


def record_project_ids_for_person(user) -> list[int] | None:
    """The projects whose run records a person may search: None for a console admin (every
    project), else the projects whose store the person manages (the person-access rule: an
    escalation contact's projects), possibly none."""
    if not user.is_active:
        return []
    if user.is_superuser:
        return None
    project_stores = Store.objects.filter(kind=StoreKind.PROJECT, project__isnull=False)
    return sorted(set(stores_person_manages(user, project_stores).values_list("project_id", flat=True)))


def run_records(run: Run) -> QuerySet[RunRecord]:
    return RunRecord.objects.filter(run=run).order_by("created_at", "pk")


# The run's stores: a bulk snapshot for checkout, and a change cursor for every later pass.


def encode_change_cursor(seqs: dict[str, int]) -> str:
    raw = json.dumps(seqs, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return "chg_" + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_change_cursor(token: str | None) -> dict[str, int]:
    if not token:
        raise InvalidRequest("`cursor` is required: pass the cursor of the snapshot or of the last changes.")
    if not token.startswith("chg_"):
        raise InvalidRequest("`cursor` is not a change cursor this API gave out; pass it unchanged.")
    body = token[4:]
    try:
        seqs = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeDecodeError) as exc:
        raise InvalidRequest("`cursor` is not a readable change cursor; pass it unchanged.") from exc
    if not isinstance(seqs, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in seqs.items()
    ):
        raise InvalidRequest("`cursor` is not a readable change cursor.")
    return seqs


def run_stores(run: Run) -> list[tuple[dict[str, Any], Store]]:
    """The run's attached stores that still exist, each with its attachment, in the run's order."""
    ids = [a["memory_store_id"] for a in run.attachments]
    by_id = {s.public_id: s for s in Store.objects.filter(public_id__in=ids)}
    return [(a, by_id[a["memory_store_id"]]) for a in run.attachments if a["memory_store_id"] in by_id]


MEMORY_FIELDS = ("pk", "public_id", "path", "content", "content_sha256", "size_bytes", "head_version_id",
                 "change_seq", "updated_at", "deleted_at", "deleted_by_person")


def run_snapshot(run: Run) -> dict[str, Any]:
    """Every live memory of every attached store, with full text, and the change cursor to go on from.

    Memories come as rows of MEMORY_FIELDS with their store's `memory_store_id`; the API renders them.

    The cursor is read before the memories, so a write landing in between is sent again by the
    feed (harmless: the client sees the same text) rather than missed.
    """
    attached = run_stores(run)  # read first: their change numbers are the cursor
    seqs = {store.public_id: store.change_seq for _, store in attached}
    stores = []
    for attachment, store in attached:
        rows = (
            Memory.objects.filter(store=store, deleted_at__isnull=True)
            .order_by("path")
            .values(*MEMORY_FIELDS)
        )
        stores.append({**attachment, "memories": [{**r, "memory_store_id": store.public_id} for r in rows]})
    return {"stores": stores, "cursor": encode_change_cursor(seqs)}


def run_changes(run: Run, cursor: str, *, limit: int = CHANGES_PAGE) -> dict[str, Any]:
    """What changed in the run's stores since the cursor: live memories with text, deletions by id.

    A pass with nothing new costs one small query on the run's few store rows, whatever the size
    of the stores: the memory table is read only for stores whose change number moved, through
    the (store, change_seq) index. Every write takes the next number under its store's row lock,
    so numbers commit in order and ``change_seq > cursor`` never skips a late commit.
    """
    seen = decode_change_cursor(cursor)
    attached = run_stores(run)
    current = {store.public_id: store.change_seq for _, store in attached}
    after = {sid: seen.get(sid, 0) for sid in current}
    changes: list[dict[str, Any]] = []
    more = False
    for _, store in attached:
        sid = store.public_id
        if current[sid] <= after[sid]:
            continue
        room = limit - len(changes)
        if room <= 0:
            more = True
            break
        rows = list(
            Memory.objects.filter(store=store, change_seq__gt=after[sid])
            .order_by("change_seq")
            .values(*MEMORY_FIELDS)[: room + 1]
        )
        if len(rows) > room:
            rows = rows[:room]
            more = True
        changes.extend({**r, "memory_store_id": sid} for r in rows)
        # Never step past what was read: a later number read above may not be visible yet here.
        after[sid] = rows[-1]["change_seq"] if more else max(current[sid], rows[-1]["change_seq"] if rows else 0)
        if more:
            break
    return {"changes": changes, "cursor": encode_change_cursor(after), "more": more}


# For people: what a store kept aside and what it refused.


def store_set_asides(store: Store, *, status: str | None = None, memory_id: str | None = None) -> QuerySet[SetAside]:
    """The store's set-aside texts, of one status or one memory when asked."""
    qs = SetAside.objects.filter(store=store).select_related("memory", "store")
    if status:
        qs = qs.filter(status=status)
    if memory_id:
        qs = qs.filter(memory__public_id=memory_id)
    return qs


def store_refusals(store: Store, *, reason_code: str | None = None, run_id: str | None = None) -> QuerySet[Refusal]:
    """The store's refused changes, of one reason code or one run when asked."""
    qs = Refusal.objects.filter(store=store).select_related("store")
    if reason_code:
        qs = qs.filter(code=reason_code)
    if run_id:
        qs = qs.filter(run_public_id=run_id)
    return qs


def run_public_ids(*, run_id: str = "", ticket: str = "") -> frozenset[str] | None:
    """The public ids of the runs a reader picked by run id and/or Jira ticket key (None: no pick)."""
    if not run_id and not ticket:
        return None
    runs = Run.objects.all()
    if run_id:
        runs = runs.filter(public_id=run_id.strip())
    if ticket:
        runs = runs.filter(ticket_key__iexact=ticket.strip())
    return frozenset(runs.values_list("public_id", flat=True))
