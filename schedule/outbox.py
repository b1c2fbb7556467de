"""Follow-up Celery tasks that survive a broker outage (a transactional outbox).

``enqueue_on_commit(task_name, kwargs)`` records the task in an ``OutboxMessage`` row inside the
caller's transaction, so the follow-up exists exactly when the write does: a rolled-back write
asks for nothing, a committed one can never lose its follow-up. After commit the task is handed to
the broker and the row deleted. When the broker cannot be reached the row stays and the caller
still gets its normal answer; ``outbox_sweep()`` (run every minute by Celery beat) publishes what
is left once the broker answers again.

Delivery is at least once: a process that dies between publishing and deleting its row leaves it
for the sweep, which publishes it again under the same task id. Tasks sent this way must be
idempotent, as every task in the console is.
"""

from __future__ import annotations

import importlib
import logging
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any
from uuid import UUID

from celery import current_app
from django.db import DEFAULT_DB_ALIAS, router, transaction
from django.db.models import F, Q
from django.utils import timezone

from .models import OutboxMessage

__all__ = ["SweepResult", "enqueue_on_commit", "outbox_sweep"]

logger = logging.getLogger(__name__)

# A fresh row belongs to its own after-commit hook for this long; only then may a sweep take it
# (a row whose hook already failed is the sweep's at once). Far longer than a publish can take.
SWEEP_GRACE_SECONDS = 60
SWEEP_CHUNK = 100

# One quick retry: a pooled connection left stale by a broker restart reconnects on it. More
# retries would only make every write wait on a broker that is down.
_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}

# After a failed publish, later hooks skip the broker for a few seconds and leave their rows for
# the sweep, so a burst of writes during an outage does not wait on the dead broker once per write.
_BREAKER_SECONDS = 5.0
_broker_down_until = 0.0  # time.monotonic() value; 0 when the last publish went through
_SKIPPED = "broker unreachable moments ago"


def enqueue_on_commit(task_name: str, kwargs: dict[str, Any] | None = None, *, using: str | None = None) -> str:
    """Queue the Celery task ``task_name(**kwargs)`` once the current transaction commits.

    Never raises because the broker is down: the task waits in the outbox and the sweep sends it.
    ``kwargs`` must be JSON (ids and keys, not model instances). Returns the Celery task id.
    """
    db = using or router.db_for_write(OutboxMessage) or DEFAULT_DB_ALIAS
    message = OutboxMessage.objects.using(db).create(task_name=task_name, kwargs=kwargs or {})
    transaction.on_commit(
        partial(_deliver_after_commit, message.pk, task_name, message.kwargs, message.task_id, db),
        using=db,
        robust=True,
    )
    return str(message.task_id)


def _deliver_after_commit(pk: int, task_name: str, kwargs: dict[str, Any], task_id: UUID, db: str) -> None:
    """Publish one committed follow-up and drop its row; on any failure leave the row for the sweep."""
    try:
        error = _publish(task_name, kwargs, task_id, respect_breaker=True)
        if error is None:
            OutboxMessage.objects.using(db).filter(pk=pk).delete()
        else:
            _note_failure(db, pk, error)
            # One warning per outage, not one per write: the writes that skip the broker say so quietly.
            logger.log(
                logging.DEBUG if error == _SKIPPED else logging.WARNING,
                "outbox: %s could not be queued, left for the sweep (%s)", task_name, error,
            )
    except Exception:
        # The write has committed and the caller is owed its normal answer: nothing here may raise.
        logger.exception("outbox: delivering %s after commit failed; the sweep will retry", task_name)


def _publish(task_name: str, kwargs: dict[str, Any], task_id: UUID, *, respect_breaker: bool) -> str | None:
    """Hand one task to the broker (or run it in process when tasks are eager). None, or why not."""
    global _broker_down_until
    app = current_app
    if app.conf.task_always_eager:
        return _run_in_process(task_name, kwargs, task_id)
    if respect_breaker and time.monotonic() < _broker_down_until:
        return _SKIPPED
    try:
        app.send_task(task_name, kwargs=kwargs, task_id=str(task_id), retry=True, retry_policy=_PUBLISH_RETRY_POLICY)
    except Exception as exc:  # kombu, redis and socket errors all mean the same: not queued
        _broker_down_until = time.monotonic() + _BREAKER_SECONDS
        return f"{type(exc).__name__}: {exc}"[:255]
    _broker_down_until = 0.0
    return None


def _run_in_process(task_name: str, kwargs: dict[str, Any], task_id: UUID) -> str | None:
    """Without a broker (no REDIS_URL) tasks run here and now, as Celery's eager mode does."""
    app = current_app
    task = app.tasks.get(task_name)
    if task is None:
        # A shared_task registers itself when its module is imported; the web process imports lazily.
        # A task's name is its module's path, or (a task that moved and kept its name) the name of a
        # task in its app's ``tasks`` module.
        for module in dict.fromkeys((task_name.rpartition(".")[0], task_name.partition(".")[0] + ".tasks")):
            try:
                importlib.import_module(module)
            except ImportError:
                continue
            if task_name in app.tasks:
                break
        task = app.tasks.get(task_name)
    if task is None:
        return f"no task named {task_name}"[:255]
    try:
        task.apply(kwargs=kwargs, task_id=str(task_id), throw=True)
    except Exception:
        # The task ran and failed, as it could in a worker; it is not the outbox's to retry.
        logger.exception("outbox: in-process task %s failed", task_name)
    return None


def _note_failure(db: str, pk: int, error: str) -> None:
    OutboxMessage.objects.using(db).filter(pk=pk).update(
        failures=F("failures") + 1, last_error=error[:255], last_failed_at=timezone.now()
    )


@dataclass(frozen=True)
class SweepResult:
    """What one sweep did: tasks handed to the broker, tasks that failed again, rows still waiting."""

    sent: int
    failed: int
    pending: int

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def outbox_sweep(
    *, limit: int = 5000, now: datetime | None = None, grace_seconds: int = SWEEP_GRACE_SECONDS
) -> SweepResult:
    """Publish the follow-ups the broker could not take, oldest first; stop at the first failure.

    Rows are claimed with ``SELECT ... FOR UPDATE SKIP LOCKED`` in short transactions, so two
    sweeps never send the same row, and a row is deleted only after the broker accepted it.
    """
    now = now or timezone.now()
    due = Q(failures__gt=0) | Q(created_at__lte=now - timedelta(seconds=grace_seconds))
    sent = failed = 0
    broker_down = False
    while not broker_down and sent < limit:
        with transaction.atomic():
            chunk = list(
                OutboxMessage.objects.filter(due).select_for_update(skip_locked=True).order_by("id")[:SWEEP_CHUNK]
            )
            if not chunk:
                break
            delivered: list[int] = []
            for message in chunk:
                error = _publish(message.task_name, message.kwargs, message.task_id, respect_breaker=False)
                if error is not None:
                    _note_failure(message._state.db or DEFAULT_DB_ALIAS, message.pk, error)
                    failed += 1
                    broker_down = True
                    break
                delivered.append(message.pk)
            OutboxMessage.objects.filter(pk__in=delivered).delete()
            sent += len(delivered)
    pending = OutboxMessage.objects.count()
    if sent or failed or pending:
        logger.info("outbox sweep: sent %d, failed %d, pending %d", sent, failed, pending)
    return SweepResult(sent=sent, failed=failed, pending=pending)
