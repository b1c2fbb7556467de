"""The schedule as the data migration leaves it, and the admin's "Close engagement today" action."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from celery import current_app
from django.urls import reverse
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from runs.models import RunRecord
from schedule.models import OutboxMessage
from tests import factories as f
from tests.schedule.records import make_records, remaining

pytestmark = pytest.mark.django_db

EXPECTED = {
    # name: (task, crontab "minute hour" or interval seconds)
    "Jira sync": ("jira_link.tasks.sync_jira_task", "*/10 *"),
    "Run-record retention purge": ("runs.retention_tasks.purge_run_records_task", "30 2"),
    "Engagement closes": ("runs.retention_tasks.engagement_closes_task", "5 *"),
    "Lesson prompts close": ("runs.tasks.lesson_prompts_close_task", "*/15 *"),
    "Outbox sweep": ("schedule.tasks.outbox_sweep_task", 60),
}


def test_the_migration_creates_every_periodic_task_enabled_on_its_schedule():
    rows = {t.name: t for t in PeriodicTask.objects.filter(name__in=EXPECTED).select_related("crontab", "interval")}
    assert set(rows) == set(EXPECTED)
    for name, (task, when) in EXPECTED.items():
        row = rows[name]
        assert row.task == task and row.enabled and row.description, name
        if isinstance(when, int):
            assert (row.interval.every, row.interval.period, row.crontab) == (when, "seconds", None), name
        else:
            c = row.crontab
            assert (f"{c.minute} {c.hour}", c.day_of_week, c.day_of_month, c.month_of_year, str(c.timezone)) == (
                when, "*", "*", "*", "UTC"), name


@pytest.mark.parametrize("task", sorted(task for task, _ in EXPECTED.values()))
def test_every_scheduled_task_name_is_a_registered_task(task):
    importlib.import_module(task.partition(".")[0] + ".tasks")  # every app keeps its tasks in <app>/tasks.py
    assert task in current_app.tasks


def test_close_engagement_today_in_the_admin_sets_the_date_and_a_task_purges(
    client, eager_tasks, django_capture_on_commit_callbacks
):
    admin = f.make_user("admin-closer", admin=True)
    now = timezone.now()
    closing = f.make_project("CLOSE")
    closed_earlier = f.make_project("EARLY", engagement_closed_on=now.date() - timedelta(days=3))
    later = f.make_project("LATER", engagement_closed_on=now.date() + timedelta(days=30))
    untouched = f.make_project("OPEN")
    for project in (closing, closed_earlier, later, untouched):
        make_records(project, now - timedelta(days=1))
    client.force_login(admin)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(
            reverse("admin:stores_jiraproject_changelist"),
            {"action": "close_engagement_today", "_selected_action": [closing.pk, closed_earlier.pk, later.pk]},
            follow=True,
        )

    assert response.status_code == 200
    assert len(callbacks) == 3  # one purge task per project, queued after commit
    assert "Closed CLOSE (closed on" in response.content.decode()
    for project in (closing, closed_earlier, later, untouched):
        project.refresh_from_db()
    assert closing.engagement_closed_on == later.engagement_closed_on == timezone.localdate()
    assert closed_earlier.engagement_closed_on == now.date() - timedelta(days=3)
    assert untouched.engagement_closed_on is None
    assert set(RunRecord.objects.values_list("project__key", flat=True)) == {"OPEN"}
    assert remaining(untouched) == {now - timedelta(days=1)}
    assert not OutboxMessage.objects.exists()


def test_the_outbox_admin_lists_waiting_tasks_read_only(client):
    admin = f.make_user("admin-viewer", admin=True)
    OutboxMessage.objects.create(task_name="runs.retention_tasks.engagement_purge_task", kwargs={"project_id": 1})
    client.force_login(admin)

    listing = client.get(reverse("admin:schedule_outboxmessage_changelist"))
    add = client.get(reverse("admin:schedule_outboxmessage_add"))

    assert listing.status_code == 200 and "engagement_purge_task" in listing.content.decode()
    assert add.status_code == 403
