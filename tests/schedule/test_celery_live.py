"""Real Celery processes on a Redis server of the test's own (never the machine's shared one):
a broker outage in the middle of a burst of writes, and a purge Celery beat runs on its own."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from runs.models import RunRecord
from schedule.models import OutboxMessage
from schedule.outbox import enqueue_on_commit, outbox_sweep
from tests import factories as f
from tests.schedule.probe_tasks import NOTE_TASK, notes
from tests.schedule.procs import (
    REDIS_SERVER,
    PrivateRedis,
    celery_beat,
    celery_worker,
    child_env,
    shared_database_url,
    use_broker,
    wait_for,
)
from tests.schedule.records import make_records, make_run, remaining

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(REDIS_SERVER is None, reason="needs the redis-server program for a private Redis"),
]

DAY = timedelta(days=1)


def test_a_broker_outage_loses_no_write_and_every_follow_up_runs_once(tmp_path):
    log = tmp_path / "follow-ups"
    project = f.make_project("OUTAGE")
    run = make_run(project)

    def write(n: int) -> None:
        """One write that asks for a follow-up, as a service would; it must answer normally."""
        with transaction.atomic():
            RunRecord.objects.create(run=run, project=project, created_at=timezone.now(), transcript=f"write {n}")
            enqueue_on_commit(NOTE_TASK, {"path": str(log), "n": n})

    with PrivateRedis(tmp_path) as redis, use_broker(redis.url):
        # The probe task touches no database; the worker gets a scratch one of its own.
        env = child_env(broker_url=redis.url, database_url=f"sqlite:///{tmp_path / 'worker.sqlite3'}")
        with celery_worker(env, tmp_path, include="tests.schedule.probe_tasks") as worker:
            for n in range(20):
                write(n)
            # This Redis keeps nothing across a restart (no persistence), so what it already holds
            # would be lost with it: that is the broker's durability, not the outbox's. Let the
            # worker take it first, then pull the plug in the middle of the burst.
            wait_for(lambda: len(notes(log)) == 20, 30, what="the first 20 follow-ups")
            redis.stop()
            for n in range(20, 40):
                write(n)
            assert RunRecord.objects.count() == 40, "every write made during the outage is saved"
            assert OutboxMessage.objects.count() == 20, "and every follow-up it asked for is kept"

            redis.start()  # same port
            # The sweep beat runs every minute, here until nothing waits; then writes queue directly again.
            wait_for(lambda: outbox_sweep().pending == 0, 30, interval=0.5, what="the outbox to empty")
            for n in range(40, 60):
                write(n)
            assert not OutboxMessage.objects.exists(), "once the broker is back, follow-ups go straight to it"
            wait_for(lambda: len(notes(log)) >= 60, 60, what=lambda: f"all 60 follow-ups\n{worker.log()[-2000:]}")
            # Give a duplicate, if there were one, the time to show up.
            time.sleep(1.5)

    assert sorted(notes(log)) == list(range(60)), "each follow-up ran exactly once"
    assert RunRecord.objects.count() == 60
    assert not OutboxMessage.objects.exists()


@pytest.mark.postgres
def test_celery_beat_runs_the_retention_purge_on_its_own(tmp_path):
    now = timezone.now()
    plain = f.make_project("BEAT")
    short = f.make_project("SHORT", client=f.make_client(retention_days=30))
    make_records(plain, now - 91 * DAY, now - 200 * DAY, now - 89 * DAY)
    make_records(short, now - 31 * DAY, now - 29 * DAY)
    expected = {now - 89 * DAY, now - 29 * DAY}

    # The schedule's own rows stay off; the purge runs every second instead of once a day.
    PeriodicTask.objects.update(enabled=False)
    every_second, _ = IntervalSchedule.objects.get_or_create(every=1, period=IntervalSchedule.SECONDS)
    PeriodicTask.objects.update_or_create(
        name="Run-record retention purge",
        defaults={"task": "runs.retention_tasks.purge_run_records_task", "interval": every_second,
                  "crontab": None, "enabled": True},
    )

    with PrivateRedis(tmp_path) as redis:
        env = child_env(broker_url=redis.url, database_url=shared_database_url())
        env["RUN_RECORD_RETENTION_DAYS"] = "90"
        with celery_worker(env, tmp_path) as worker, celery_beat(env, tmp_path) as beat:
            wait_for(
                lambda: RunRecord.objects.count() == len(expected), 60,
                what=lambda: f"the scheduled purge\n--- beat\n{beat.log()[-1500:]}\n--- worker\n{worker.log()[-1500:]}",
            )
            log = worker.log()

    assert remaining() == expected
    assert "runs.retention_tasks.purge_run_records_task" in log and "succeeded" in log
