"""Run-record retention and engagement close: the purges.

A run record is kept for its retention and deleted once it is older than that. The retention is
``settings.RUN_RECORD_RETENTION_DAYS``, or the client's own ``retention_days`` when fewer; a longer
value on a client never extends the default. When a project's ``engagement_closed_on`` date is
reached, every run record of the project goes.

These services bypass Django's deletion collector on purpose: ``RunRecord`` has no history, no
delete signals and nothing refers to it, so each batch is one plain ``DELETE`` (on PostgreSQL a
single statement that selects the batch and deletes it; elsewhere ``DELETE ... WHERE id IN``).
Keep it that way: a ``post_delete`` receiver or a history table would make every purge load and
copy each row, tens of times slower and about a kilobyte of memory per row.
Batches are bounded and each is its own short transaction, so a purge can be stopped at any point
(a crash, a time limit, ``stop_after_batches``) and run again: it recomputes its cutoff and
continues with what is left. Two purges at once are harmless, they only race to the same rows.
Logs carry counts, never content.
The search index of run records is the database's own (runs.search): a deleted row leaves it in
the same statement, whichever door deletes it.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal

from django.conf import settings
from django.db import connections, router, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from schedule.outbox import enqueue_on_commit
from stores.models import Client, JiraProject

from .models import RunRecord
from .search import record_index_settle

# The Celery name of the one-project purge. Names stay as first registered (django-celery-beat rows
# and outbox rows name tasks), whichever module of runs holds the task now.
ENGAGEMENT_PURGE_TASK = "runs.retention_tasks.engagement_purge_task"

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "EngagementCloseResult",
    "PurgeResult",
    "close_engagement",
    "engagement_closes_due",
    "purge_closed_engagements",
    "purge_engagement_records",
    "purge_run_records",
    "retention_days_for",
]

logger = logging.getLogger(__name__)

# Rows per DELETE: large enough that per-statement overhead vanishes, small enough that each
# transaction is short (tens of milliseconds on PostgreSQL) and holds few locks.
DEFAULT_BATCH_SIZE = 10_000

# A command's progress bar: wraps the batch iterator, given the number of batches expected.
Progress = Callable[[Iterable[int], int], Iterable[int]]


@dataclass(frozen=True)
class PurgeResult:
    """What a purge did: rows deleted (or, on a dry run, that would be), batches, and whether it ran to the end."""

    deleted: int
    dry_run: bool
    batches: int = 0
    finished: bool = True

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class EngagementCloseResult:
    """The outcome of closing an engagement: the project, its closing date, the records deleted."""

    key: str
    closed_on: date
    deleted: int
    dry_run: bool

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "closed_on": self.closed_on.isoformat(), "deleted": self.deleted, "dry_run": self.dry_run}


def retention_days_for(client: Client | None) -> int:
    """Days a run record of this client's work is kept: the default, or the client's days when fewer."""
    default = settings.RUN_RECORD_RETENTION_DAYS
    if client is None or client.retention_days is None:
        return default
    return min(default, client.retention_days)


def _expired(now: datetime) -> list[QuerySet[RunRecord]]:
    """The records past their retention at ``now``, as disjoint querysets (one per retention in use)."""
    default_days = settings.RUN_RECORD_RETENTION_DAYS
    default_cutoff = now - timedelta(days=default_days)
    # Past the default is past every retention, since a client's days can only be fewer.
    groups = [RunRecord.objects.filter(created_at__lt=default_cutoff)]
    shorter = (
        Client.objects.filter(retention_days__lt=default_days)
        .order_by("retention_days")
        .values_list("retention_days", flat=True)
        .distinct()
    )
    for days in shorter:
        groups.append(
            RunRecord.objects.filter(
                project__in=JiraProject.objects.filter(client__retention_days=days).values("pk"),
                created_at__gte=default_cutoff,  # older ones are the first group's
                created_at__lt=now - timedelta(days=days),
            )
        )
    return groups


def _delete_batches(queryset: QuerySet[RunRecord], batch_size: int) -> Iterator[int]:
    """Delete the rows of ``queryset`` oldest first, ``batch_size`` per transaction; yield each count.

    Each batch resumes from the last batch's newest ``created_at`` (``>=``: rows deleted already
    are gone, rows sharing that instant are not), so an index scan never walks back over the dead
    rows earlier batches left behind.
    """
    db = router.db_for_write(RunRecord)
    if connections[db].vendor == "postgresql":
        yield from _delete_batches_postgresql(queryset, batch_size, db)
    else:
        yield from _delete_batches_portable(queryset, batch_size, db)


# The floor before the first batch: older than any record.
_NO_FLOOR = datetime(1, 1, 1, tzinfo=UTC)


def _delete_batches_postgresql(queryset: QuerySet[RunRecord], batch_size: int, db: str) -> Iterator[int]:
    """One statement per batch: select the batch, delete it, return (selected, newest, deleted).

    The SQL is compiled once and only the floor changes between batches, and no id crosses into
    Python, so time and memory per batch stay flat however many rows go. The delete finds its
    rows by ``ctid`` (a TID scan, no second index walk); that is safe within one statement: the
    selection and the delete share one snapshot, and a row updated concurrently in between is
    rechecked, no longer matches and is simply left for the next run.
    """
    quote = connections[db].ops.quote_name
    table = quote(RunRecord._meta.db_table)
    batch = (
        queryset.filter(created_at__gte=_NO_FLOOR)
        .annotate(tid=RawSQL(f"{table}.ctid", ()))
        .order_by("created_at")
        .values_list("tid", "created_at")
    )
    select_sql, select_params = batch[:batch_size].query.get_compiler(using=db).as_sql()
    params = list(select_params)
    (floor_at,) = [i for i, value in enumerate(params) if value == _NO_FLOOR]
    # The batch's columns are always named through "b.": an unqualified name missing from the
    # batch would silently resolve to the table being deleted from, and match every row.
    sql = (
        f"WITH batch AS MATERIALIZED ({select_sql}), "
        f"gone AS (DELETE FROM {table} WHERE ctid = ANY(ARRAY(SELECT b.tid FROM batch AS b)) RETURNING 1) "
        "SELECT (SELECT count(*) FROM batch), (SELECT max(b.created_at) FROM batch AS b), (SELECT count(*) FROM gone)"
    )
    import psycopg  # only on PostgreSQL, where Django's backend already loaded it

    connection = connections[db]
    while True:
        with transaction.atomic(using=db):
            connection.ensure_connection()
            # Server-side binding: each batch sends only its floor as a parameter, so nothing (not
            # even a quoted literal, which psycopg's client-side cursor caches) piles up per batch.
            # Unprepared, so a transaction-pooling proxy in front of PostgreSQL is no problem.
            with psycopg.Cursor(connection.connection) as cursor:
                cursor.execute(sql, params, prepare=False)
                selected, newest, deleted = cursor.fetchone()
        if not selected:
            return
        yield deleted
        if selected < batch_size:
            return
        params[floor_at] = newest


def _delete_batches_portable(queryset: QuerySet[RunRecord], batch_size: int, db: str) -> Iterator[int]:
    """The same on other databases (SQLite): read a batch's ids, then delete them."""
    floor = _NO_FLOOR
    while True:
        rows = list(
            queryset.filter(created_at__gte=floor).order_by("created_at").values_list("pk", "created_at")[:batch_size]
        )
        if not rows:
            return
        with transaction.atomic(using=db):
            deleted = RunRecord.objects.filter(pk__in=[pk for pk, _ in rows])._raw_delete(db)
        yield deleted
        if len(rows) < batch_size:
            return
        floor = rows[-1][1]


def _run_purge(
    querysets: list[QuerySet[RunRecord]],
    *,
    batch_size: int,
    dry_run: bool,
    stop_after_batches: int | None,
    progress: Progress | None,
) -> PurgeResult:
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    if dry_run:
        return PurgeResult(deleted=sum(qs.count() for qs in querysets), dry_run=True)

    def all_batches() -> Iterator[int]:
        for qs in querysets:
            yield from _delete_batches(qs, batch_size)

    batches: Iterable[int] = all_batches()
    if progress is not None:
        expected = sum(math.ceil(qs.count() / batch_size) for qs in querysets)
        batches = progress(batches, expected)
    deleted = done = 0
    finished = True
    for count in batches:
        deleted += count
        done += 1
        if stop_after_batches is not None and done >= stop_after_batches:
            finished = False
            break
    if deleted:
        # Each deleted row took its search entry with it (runs.search); FTS5 drops the terms now.
        record_index_settle()
    return PurgeResult(deleted=deleted, dry_run=False, batches=done, finished=finished)


def purge_run_records(
    now: datetime | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    dry_run: bool = False,
    stop_after_batches: int | None = None,
    progress: Progress | None = None,
) -> PurgeResult:
    """Delete every run record older than its retention; on ``dry_run``, count them instead.

    A record exactly as old as its retention is kept; one a moment older goes. The cutoffs are
    computed from ``now`` (the current time by default) on every call. ``stop_after_batches``
    stops early, as an interruption would; calling again finishes the job.
    """
    now = now or timezone.now()
    result = _run_purge(
        _expired(now), batch_size=batch_size, dry_run=dry_run, stop_after_batches=stop_after_batches,
        progress=progress,
    )
    logger.info(
        "run-record retention purge: %s %d records in %d batches%s",
        "would delete" if dry_run else "deleted", result.deleted, result.batches,
        "" if result.finished else " (stopped early)",
    )
    return result


def engagement_closes_due(today: date | None = None) -> QuerySet[JiraProject]:
    """Projects whose engagement-closed date has been reached and that still have run records."""
    today = today or timezone.localdate()
    return JiraProject.objects.filter(
        Exists(RunRecord.objects.filter(project=OuterRef("pk"))), engagement_closed_on__lte=today
    ).order_by("key")


def purge_engagement_records(
    project: JiraProject,
    *,
    today: date | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    dry_run: bool = False,
    stop_after_batches: int | None = None,
    progress: Progress | None = None,
) -> PurgeResult:
    """Delete every run record of ``project`` if its engagement-closed date has been reached, else nothing.

    The date is read afresh from the database, so a task queued before someone reopened the
    engagement (cleared or moved the date) deletes nothing.
    """
    today = today or timezone.localdate()
    closed_on = JiraProject.objects.filter(pk=project.pk).values_list("engagement_closed_on", flat=True).first()
    if closed_on is None or closed_on > today:
        return PurgeResult(deleted=0, dry_run=dry_run)
    result = _run_purge(
        [RunRecord.objects.filter(project_id=project.pk)], batch_size=batch_size, dry_run=dry_run,
        stop_after_batches=stop_after_batches, progress=progress,
    )
    logger.info(
        "engagement close: project %s (closed on %s) %s %d run records",
        project.key, closed_on.isoformat(), "would delete" if dry_run else "deleted", result.deleted,
    )
    return result


def purge_closed_engagements(today: date | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> dict[str, int]:
    """Purge the run records of every project whose engagement has closed: ``{projects, deleted}``."""
    today = today or timezone.localdate()
    projects = deleted = 0
    for project in engagement_closes_due(today):
        deleted += purge_engagement_records(project, today=today, batch_size=batch_size).deleted
        projects += 1
    return {"projects": projects, "deleted": deleted}


def close_engagement(
    project: JiraProject,
    on: date | None = None,
    *,
    now: datetime | None = None,
    dry_run: bool = False,
    purge: Literal["now", "task"] = "now",
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Progress | None = None,
) -> EngagementCloseResult:
    """Set the project's engagement-closed date (today by default) and, once it is reached, purge.

    With ``purge="now"`` (the command) the records go in this call; with ``purge="task"`` (the
    admin) a task deletes them after commit, through the outbox. A future date deletes nothing
    now: the hourly engagement-closes task deletes the records on that day. New runs on the
    project's tickets are refused from the date on (the run API reads the same field). On
    ``dry_run`` nothing is written and ``deleted`` counts what would go.
    """
    today = timezone.localdate(now or timezone.now())
    on = on or today
    reached = on <= today
    if dry_run:
        deleted = RunRecord.objects.filter(project_id=project.pk).count() if reached else 0
        return EngagementCloseResult(key=project.key, closed_on=on, deleted=deleted, dry_run=True)

    with transaction.atomic():
        JiraProject.objects.filter(pk=project.pk).update(engagement_closed_on=on)
        project.engagement_closed_on = on
        if reached and purge == "task":
            enqueue_on_commit(ENGAGEMENT_PURGE_TASK, {"project_id": project.pk})
    logger.info("engagement close: project %s closes on %s", project.key, on.isoformat())
    deleted = 0
    if reached and purge == "now":
        deleted = purge_engagement_records(project, today=today, batch_size=batch_size, progress=progress).deleted
    return EngagementCloseResult(key=project.key, closed_on=on, deleted=deleted, dry_run=False)
