"""The outbox: a follow-up task is queued after commit, never before, never for a rolled-back write,
and a broker that cannot be reached neither fails the write nor loses the task."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from schedule.models import OutboxMessage
from schedule.outbox import SWEEP_GRACE_SECONDS, enqueue_on_commit, outbox_sweep
from stores.models import Toolset
from tests.schedule.probe_tasks import NOTE_TASK, notes
from tests.schedule.procs import free_port, use_broker
from tests.schedule.records import EagerTasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def dead_broker():
    """A broker URL on a loopback port nothing listens on."""
    with use_broker(f"redis://127.0.0.1:{free_port()}/0"):
        yield


def test_the_task_runs_after_commit_and_its_row_goes(tmp_path, eager_tasks, django_capture_on_commit_callbacks):
    log = tmp_path / "notes"
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic():
            Toolset.objects.create(name="written-with-a-follow-up")
            task_id = enqueue_on_commit(NOTE_TASK, {"path": str(log), "n": 1})
            assert notes(log) == []  # nothing runs inside the transaction
            assert OutboxMessage.objects.filter(task_id=task_id).exists()

    assert len(callbacks) == 1
    assert notes(log) == [1]
    assert not OutboxMessage.objects.exists()


def test_a_rolled_back_write_asks_for_nothing(tmp_path, eager_tasks, django_capture_on_commit_callbacks):
    log = tmp_path / "notes"
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            Toolset.objects.create(name="never-saved")
            enqueue_on_commit(NOTE_TASK, {"path": str(log), "n": 1})
            raise RuntimeError("the write failed")

    assert callbacks == []
    assert notes(log) == []
    assert not OutboxMessage.objects.exists()
    assert not Toolset.objects.filter(name="never-saved").exists()


def test_an_unreachable_broker_keeps_the_write_and_the_task(dead_broker, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            Toolset.objects.create(name="saved-during-outage")
            enqueue_on_commit(NOTE_TASK, {"path": "unused", "n": 1})

    assert Toolset.objects.filter(name="saved-during-outage").exists()
    message = OutboxMessage.objects.get()
    assert message.failures == 1 and message.last_error and message.last_failed_at
    assert (message.task_name, message.kwargs) == (NOTE_TASK, {"path": "unused", "n": 1})


def test_writes_right_after_a_failure_do_not_wait_on_the_dead_broker(dead_broker, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        enqueue_on_commit(NOTE_TASK, {"path": "unused", "n": 0})
    for n in range(1, 21):
        with django_capture_on_commit_callbacks(execute=True):
            enqueue_on_commit(NOTE_TASK, {"path": "unused", "n": n})

    # None of the 20 tried the dead broker again: each was kept with the first failure's note.
    assert OutboxMessage.objects.filter(failures=1).count() == 21
    assert OutboxMessage.objects.filter(last_error="broker unreachable moments ago").count() == 20


def test_the_sweep_stops_at_the_first_failure_and_keeps_every_row(dead_broker, django_capture_on_commit_callbacks):
    for n in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            enqueue_on_commit(NOTE_TASK, {"path": "unused", "n": n})

    result = outbox_sweep()

    assert result.as_dict() == {"sent": 0, "failed": 1, "pending": 3}
    assert sorted(OutboxMessage.objects.values_list("failures", flat=True)) == [1, 1, 2]


def test_the_sweep_sends_what_waited_once_tasks_can_run(tmp_path, dead_broker, django_capture_on_commit_callbacks):
    log = tmp_path / "notes"
    for n in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            enqueue_on_commit(NOTE_TASK, {"path": str(log), "n": n})
    assert OutboxMessage.objects.count() == 3

    with EagerTasks():
        result = outbox_sweep()

    assert result.as_dict() == {"sent": 3, "failed": 0, "pending": 0}
    assert notes(log) == [0, 1, 2]
    assert outbox_sweep().as_dict() == {"sent": 0, "failed": 0, "pending": 0}


def test_the_sweep_leaves_a_fresh_row_to_its_own_commit_hook(tmp_path, eager_tasks):
    log = tmp_path / "notes"
    # A row whose commit hook has not run yet (a write still being answered).
    OutboxMessage.objects.create(task_name=NOTE_TASK, kwargs={"path": str(log), "n": 7})

    assert outbox_sweep().as_dict() == {"sent": 0, "failed": 0, "pending": 1}
    later = timezone.now() + timedelta(seconds=SWEEP_GRACE_SECONDS + 1)
    assert outbox_sweep(now=later).as_dict() == {"sent": 1, "failed": 0, "pending": 0}
    assert notes(log) == [7]


def test_an_unknown_task_name_is_kept_for_the_sweep(eager_tasks, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        enqueue_on_commit("nowhere.tasks.no_such_task", {})

    message = OutboxMessage.objects.get()
    assert message.failures == 1 and "no task named nowhere.tasks.no_such_task" in message.last_error


def test_the_sweep_command_prints_its_counts(tmp_path, eager_tasks):
    log = tmp_path / "notes"
    OutboxMessage.objects.create(
        task_name=NOTE_TASK, kwargs={"path": str(log), "n": 3}, failures=1, last_error="down"
    )

    out = StringIO()
    call_command("sweep_outbox", "--dry-run", "--json", stdout=out)
    assert json.loads(out.getvalue()) == {"sent": 0, "failed": 0, "pending": 1, "dry_run": True}
    out = StringIO()
    call_command("sweep_outbox", "--json", stdout=out)
    assert json.loads(out.getvalue()) == {"sent": 1, "failed": 0, "pending": 0, "dry_run": False}
    assert notes(log) == [3]
