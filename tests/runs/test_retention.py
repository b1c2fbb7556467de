"""Retention and engagement close, with time travel: the services, then the tasks on the same services."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db.models.signals import post_delete, pre_delete
from django.utils import timezone

from runs.models import RunRecord
from runs.retention import (
    close_engagement,
    engagement_closes_due,
    purge_closed_engagements,
    purge_engagement_records,
    purge_run_records,
    retention_days_for,
)
from runs.tasks import engagement_closes_task, engagement_purge_task, purge_run_records_task
from stores.models import Client
from tests import factories as f
from tests.schedule.records import EagerTasks, make_records, remaining

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)
SECOND = timedelta(seconds=1)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _default_retention(settings):
    settings.RUN_RECORD_RETENTION_DAYS = 90


@pytest.fixture
def travel(monkeypatch):
    """Set the clock the code reads (django.utils.timezone.now) to a given instant."""

    def to(instant: datetime) -> None:
        monkeypatch.setattr(timezone, "now", lambda: instant)

    return to


@pytest.mark.parametrize(
    ("client_days", "expected"),
    [
        pytest.param(None, 90, id="no client value: the default"),
        pytest.param(30, 30, id="shorter: the client's"),
        pytest.param(90, 90, id="equal: the same"),
        pytest.param(365, 90, id="longer: never extends the default"),
        pytest.param(0, 0, id="zero: nothing kept"),
    ],
)
def test_retention_is_the_default_or_the_clients_days_when_fewer(client_days, expected):
    assert retention_days_for(Client(name="x", retention_days=client_days)) == expected


def test_keeps_records_inside_and_at_their_retention_and_deletes_older_ones():
    project = f.make_project()
    inside, at, past, long_past = NOW - 10 * DAY, NOW - 90 * DAY, NOW - 90 * DAY - SECOND, NOW - 400 * DAY
    make_records(project, inside, at, past, long_past)

    result = purge_run_records(now=NOW)

    assert (result.deleted, result.dry_run, result.finished) == (2, False, True)
    assert remaining() == {inside, at}
    # Idempotent: a second run finds nothing more.
    assert purge_run_records(now=NOW).deleted == 0
    assert remaining() == {inside, at}


def test_a_client_with_a_shorter_retention_loses_its_records_sooner():
    short = f.make_project(client=f.make_client(retention_days=30))
    default = f.make_project(client=f.make_client())
    times = [NOW - 29 * DAY, NOW - 30 * DAY, NOW - 30 * DAY - SECOND, NOW - 89 * DAY, NOW - 91 * DAY]
    make_records(short, *times)
    make_records(default, *times)

    assert purge_run_records(now=NOW).deleted == 3 + 1

    assert remaining(short) == {NOW - 29 * DAY, NOW - 30 * DAY}
    assert remaining(default) == {NOW - 29 * DAY, NOW - 30 * DAY, NOW - 30 * DAY - SECOND, NOW - 89 * DAY}


def test_a_client_with_a_longer_retention_keeps_only_the_default():
    longer = f.make_project(client=f.make_client(retention_days=365))
    make_records(longer, NOW - 89 * DAY, NOW - 91 * DAY, NOW - 200 * DAY)

    assert purge_run_records(now=NOW).deleted == 2
    assert remaining(longer) == {NOW - 89 * DAY}


def test_several_shorter_retentions_each_apply_to_their_own_client():
    seven = f.make_project(client=f.make_client(retention_days=7))
    thirty = f.make_project(client=f.make_client(retention_days=30))
    also_thirty = f.make_project(client=f.make_client(retention_days=30))
    for project in (seven, thirty, also_thirty):
        make_records(project, NOW - 6 * DAY, NOW - 8 * DAY, NOW - 31 * DAY)

    assert purge_run_records(now=NOW, batch_size=1).deleted == 2 + 1 + 1

    assert remaining(seven) == {NOW - 6 * DAY}
    assert remaining(thirty) == remaining(also_thirty) == {NOW - 6 * DAY, NOW - 8 * DAY}


def test_the_cutoff_is_computed_afresh_on_every_run(settings, travel):
    project = f.make_project()
    make_records(project, NOW - 80 * DAY)

    travel(NOW)
    assert purge_run_records().deleted == 0
    travel(NOW + 11 * DAY)  # the record is now 91 days old
    assert purge_run_records().deleted == 1

    make_records(project, NOW - 20 * DAY)
    settings.RUN_RECORD_RETENTION_DAYS = 10  # read at each run, never at import
    assert purge_run_records().deleted == 1


def test_a_dry_run_counts_what_would_go_and_deletes_nothing():
    short = f.make_project(client=f.make_client(retention_days=30))
    make_records(short, NOW - 31 * DAY, NOW - 100 * DAY, NOW - DAY)

    result = purge_run_records(now=NOW, dry_run=True)

    assert (result.deleted, result.dry_run) == (2, True)
    assert RunRecord.objects.count() == 3


def test_a_purge_stopped_half_way_finishes_when_started_again():
    project = f.make_project()
    tied = NOW - 100 * DAY  # twelve records at one instant straddle the first batch boundary
    expired = [tied] * 12 + [NOW - (100 + i) * DAY for i in range(1, 14)]
    kept = [NOW - i * DAY for i in range(1, 6)]
    make_records(project, *expired, *kept)

    first = purge_run_records(now=NOW, batch_size=10, stop_after_batches=1)
    assert (first.deleted, first.batches, first.finished) == (10, 1, False)
    assert RunRecord.objects.count() == 30 - 10

    second = purge_run_records(now=NOW, batch_size=10)
    assert (second.deleted, second.batches, second.finished) == (15, 2, True)
    assert remaining() == set(kept)
    assert RunRecord.objects.count() == 5

    assert purge_run_records(now=NOW, batch_size=10).deleted == 0


def test_closing_an_engagement_today_or_in_the_past_deletes_all_its_records_at_once():
    project = f.make_project("GONE")
    other = f.make_project("STAY")
    make_records(project, NOW - DAY, NOW - SECOND, NOW - 300 * DAY)
    make_records(other, NOW - DAY)

    result = close_engagement(project, on=date(2026, 6, 1), now=NOW)

    assert result.as_dict() == {"key": "GONE", "closed_on": "2026-06-01", "deleted": 3, "dry_run": False}
    project.refresh_from_db()
    assert project.engagement_closed_on == date(2026, 6, 1)
    assert remaining(project) == set()
    assert remaining(other) == {NOW - DAY}


def test_closing_an_engagement_defaults_to_today(travel):
    travel(NOW)
    project = f.make_project()
    make_records(project, NOW - DAY)

    result = close_engagement(project)

    assert (result.closed_on, result.deleted) == (date(2026, 6, 15), 1)


def test_an_engagement_closing_in_the_future_is_purged_on_that_day(travel):
    project = f.make_project()
    other = f.make_project()
    make_records(project, NOW - DAY)
    make_records(other, NOW - DAY)
    closes = date(2026, 7, 1)

    result = close_engagement(project, on=closes, now=NOW)

    assert (result.closed_on, result.deleted) == (closes, 0)
    assert list(engagement_closes_due(NOW.date())) == []
    travel(datetime(2026, 6, 30, 23, 59, tzinfo=UTC))
    assert engagement_closes_task() == {"projects": 0, "deleted": 0}
    assert RunRecord.objects.filter(project=project).count() == 1

    travel(datetime(2026, 7, 1, 0, 5, tzinfo=UTC))  # the hourly task's first run that day
    assert list(engagement_closes_due()) == [project]
    assert engagement_closes_task() == {"projects": 1, "deleted": 1}
    assert remaining(project) == set()
    assert remaining(other) == {NOW - DAY}
    # A record saved after the close (a run finishing late) goes on the next run; then nothing is due.
    make_records(project, datetime(2026, 7, 1, 0, 30, tzinfo=UTC))
    assert engagement_closes_task() == {"projects": 1, "deleted": 1}
    assert list(engagement_closes_due()) == []


def test_a_dry_run_close_changes_nothing_and_counts_the_records():
    project = f.make_project()
    make_records(project, NOW - DAY, NOW - 2 * DAY)

    result = close_engagement(project, on=NOW.date(), now=NOW, dry_run=True)
    future = close_engagement(project, on=NOW.date() + DAY, now=NOW, dry_run=True)

    assert (result.deleted, result.dry_run, future.deleted) == (2, True, 0)
    project.refresh_from_db()
    assert project.engagement_closed_on is None
    assert RunRecord.objects.count() == 2


def test_a_queued_engagement_purge_deletes_nothing_once_the_engagement_is_reopened():
    project = f.make_project()
    make_records(project, NOW - DAY)
    close_engagement(project, on=NOW.date() + 10 * DAY, now=NOW)

    # Not reached yet, and then reopened: either way the records stay.
    assert purge_engagement_records(project, today=NOW.date()).deleted == 0
    type(project).objects.filter(pk=project.pk).update(engagement_closed_on=None)
    assert purge_engagement_records(project, today=NOW.date() + 20 * DAY).deleted == 0
    assert RunRecord.objects.count() == 1


def test_purging_closed_engagements_covers_every_due_project_and_only_those():
    due = [f.make_project(engagement_closed_on=NOW.date() - i * DAY) for i in range(3)]
    later = f.make_project(engagement_closed_on=NOW.date() + DAY)
    open_ = f.make_project()
    for project in (*due, later, open_):
        make_records(project, NOW - DAY, NOW - 2 * DAY)

    assert purge_closed_engagements(today=NOW.date(), batch_size=1) == {"projects": 3, "deleted": 6}
    assert set(RunRecord.objects.values_list("project_id", flat=True)) == {later.pk, open_.pk}


def test_the_tasks_call_the_services(travel):
    short = f.make_project(client=f.make_client(retention_days=5))
    closed = f.make_project(engagement_closed_on=NOW.date())
    make_records(short, NOW - 6 * DAY, NOW - DAY)
    make_records(closed, NOW - DAY)
    travel(NOW)

    with EagerTasks():
        purged = purge_run_records_task.delay().get()
        one = engagement_purge_task.delay(project_id=closed.pk).get()
        missing = engagement_purge_task.delay(project_id=closed.pk + 10_000).get()

    assert purged == {"deleted": 1, "dry_run": False, "batches": 1, "finished": True}
    assert one["deleted"] == 1 and missing["deleted"] == 0
    assert remaining(short) == {NOW - DAY} and remaining(closed) == set()


def test_run_records_have_no_delete_signals_no_history_and_nothing_refers_to_them():
    """The purges delete in bulk, past Django's collector: nothing may expect to hear of it."""
    assert not pre_delete.has_listeners(RunRecord) and not post_delete.has_listeners(RunRecord)
    assert not hasattr(RunRecord, "history")
    assert [f.name for f in RunRecord._meta.get_fields() if f.auto_created and not f.concrete] == []
