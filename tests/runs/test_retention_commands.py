"""The operator commands `purge_run_records` and `close_engagement`: JSON out, progress on stderr, dry runs."""

from __future__ import annotations

import json
import sys
from datetime import UTC, date, datetime, timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from runs.models import RunRecord
from tests import factories as f
from tests.schedule.records import make_records, remaining

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clock(monkeypatch, settings):
    settings.RUN_RECORD_RETENTION_DAYS = 90
    monkeypatch.setattr(timezone, "now", lambda: NOW)


def run_command(*args: str) -> tuple[dict, str]:
    out, err = StringIO(), StringIO()
    # The progress bar goes to sys.stderr; capture it as the operator's terminal would see it.
    saved, sys.stderr = sys.stderr, err
    try:
        call_command(*args, "--json", stdout=out, stderr=err)
    finally:
        sys.stderr = saved
    return json.loads(out.getvalue()), err.getvalue()


def test_purge_run_records_prints_its_counts_and_draws_progress_on_stderr():
    project = f.make_project()
    make_records(project, *[NOW - (91 + i) * DAY for i in range(5)], NOW - DAY)

    dry, _ = run_command("purge_run_records", "--dry-run")
    assert dry == {"deleted": 5, "dry_run": True}
    assert RunRecord.objects.count() == 6

    result, progress = run_command("purge_run_records", "--batch-size", "2")
    assert result == {"deleted": 5, "dry_run": False}
    assert "purging run records [" in progress and "3/3" in progress
    assert remaining() == {NOW - DAY}


def test_purge_run_records_refuses_a_batch_size_below_one():
    with pytest.raises(CommandError, match="--batch-size"):
        call_command("purge_run_records", "--batch-size", "0")


def test_close_engagement_closes_today_by_default_and_purges_at_once():
    project = f.make_project("ACME")
    make_records(project, NOW - DAY, NOW - 2 * DAY)

    dry, _ = run_command("close_engagement", "ACME", "--dry-run")
    assert dry == {"key": "ACME", "closed_on": "2026-06-15", "deleted": 2, "dry_run": True}
    project.refresh_from_db()
    assert project.engagement_closed_on is None

    result, progress = run_command("close_engagement", "acme")
    assert result == {"key": "ACME", "closed_on": "2026-06-15", "deleted": 2, "dry_run": False}
    assert "deleting ACME run records [" in progress
    project.refresh_from_db()
    assert project.engagement_closed_on == date(2026, 6, 15)
    assert RunRecord.objects.count() == 0


def test_close_engagement_on_a_future_date_sets_it_and_deletes_nothing_yet():
    project = f.make_project("LATER")
    make_records(project, NOW - DAY)

    result, _ = run_command("close_engagement", "LATER", "--on", "2026-07-01")

    assert result == {"key": "LATER", "closed_on": "2026-07-01", "deleted": 0, "dry_run": False}
    project.refresh_from_db()
    assert project.engagement_closed_on == date(2026, 7, 1)
    assert RunRecord.objects.count() == 1


def test_close_engagement_on_a_past_date_purges():
    project = f.make_project("PAST")
    make_records(project, NOW - DAY)

    result, _ = run_command("close_engagement", "PAST", "--on", "2026-01-31")

    assert (result["closed_on"], result["deleted"]) == ("2026-01-31", 1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["NOPE"], "No Jira project with key 'NOPE'", id="unknown key"),
        pytest.param(["ACME", "--on", "31/01/2026"], "YYYY-MM-DD", id="date not ISO"),
    ],
)
def test_close_engagement_explains_bad_input(args, message):
    f.make_project("ACME")
    with pytest.raises(CommandError, match=message):
        call_command("close_engagement", *args)
