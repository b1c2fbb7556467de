"""Acceptance review of retention and engagement close (issue 6), from the outside: the admin a
person changes, the run API a running agent calls, and the commands an operator types."""

from __future__ import annotations

import json
from datetime import date, timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from runs.models import RunRecord
from schedule import outbox
from schedule.models import OutboxMessage
from stores.models import Client, JiraProject
from tests.schedule.records import EagerTasks, make_records, remaining

from .conftest import RUNS, error_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager_tasks(monkeypatch):
    """Celery tasks run in this process; the outbox starts without a remembered broker failure."""
    monkeypatch.setattr(outbox, "_broker_down_until", 0.0)
    with EagerTasks():
        yield


def project_form(project: JiraProject, **changes) -> dict:
    """The Jira project's admin form as the browser would post it, with ``changes`` applied."""
    data = {
        "key": project.key,
        "client": project.client_id,
        "toolsets": [t.pk for t in project.toolsets.all()],
        "escalation_contacts": [u.pk for u in project.escalation_contacts.all()],
        "governance_template": project.governance_template or "",
        "engagement_closed_on": project.engagement_closed_on.isoformat() if project.engagement_closed_on else "",
        "standing_decisions-TOTAL_FORMS": "0",
        "standing_decisions-INITIAL_FORMS": "0",
        "standing_decisions-MIN_NUM_FORMS": "0",
        "standing_decisions-MAX_NUM_FORMS": "1000",
        "_save": "Save",
    }
    data.update(changes)
    return data


# --- the engagement date, set in the admin ----------------------------------------------------------


def test_setting_the_engagement_date_to_today_in_the_admin_purges_at_once(
    client, world, eager_tasks, django_capture_on_commit_callbacks
):
    """Found: editing "Engagement closed on" on the project's page saved the date only; its run
    records stayed until the hourly sweep, where the command and the list action purge at once."""
    project = world.project
    now = timezone.now()
    make_records(project, now - timedelta(days=2), now - timedelta(hours=1))
    make_records(world.other_project, now - timedelta(hours=1))
    client.force_login(world.admin)
    url = reverse("admin:stores_jiraproject_change", args=[project.pk])

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, project_form(project, engagement_closed_on=timezone.localdate().isoformat()))

    assert response.status_code == 302, response.content.decode()[:2000]
    project.refresh_from_db()
    assert project.engagement_closed_on == timezone.localdate()
    assert remaining(project) == set()
    assert RunRecord.objects.filter(project=world.other_project).count() == 1
    assert not OutboxMessage.objects.exists()


def test_a_future_engagement_date_set_in_the_admin_deletes_nothing_yet(
    client, world, eager_tasks, django_capture_on_commit_callbacks
):
    project = world.project
    kept = timezone.now() - timedelta(hours=1)
    make_records(project, kept)
    client.force_login(world.admin)
    closes = timezone.localdate() + timedelta(days=10)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:stores_jiraproject_change", args=[project.pk]),
            project_form(project, engagement_closed_on=closes.isoformat()),
        )
    assert response.status_code == 302
    assert JiraProject.objects.get(pk=project.pk).engagement_closed_on == closes
    assert remaining(project) == {kept}


def test_saving_a_project_without_touching_its_date_queues_nothing(client, world, django_capture_on_commit_callbacks):
    project = world.project
    client.force_login(world.admin)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            reverse("admin:stores_jiraproject_change", args=[project.pk]),
            project_form(project, governance_template="Rulings go to the client's data lead."),
        )
    assert response.status_code == 302
    assert callbacks == [] and not OutboxMessage.objects.exists()


def test_the_engagement_date_says_in_the_admin_what_it_does(client, world):
    client.force_login(world.admin)
    page = client.get(reverse("admin:stores_jiraproject_change", args=[world.project.pk])).content.decode()
    assert "every run record of the project is deleted" in page
    assert "new runs on its tickets are refused" in page


# --- a run still going when the engagement closes -------------------------------------------------


def test_a_run_record_sent_after_the_engagement_closed_is_refused(api, world, run_factory):
    """Found: a run started before the close could still store records for a closed project (kept
    until the next hourly sweep); the close now also refuses them, with the run start's code."""
    run = run_factory()
    call_command("close_engagement", world.project.key, "--json", stdout=StringIO(), stderr=StringIO())
    response = api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/record", {"transcript": "late\n"}, format="json")
    assert response.status_code == 403
    assert error_code(response) == "engagement_closed"
    assert "closed on" in response.json()["error"]["message"]
    assert not RunRecord.objects.filter(project=world.project).exists()


def test_a_future_close_still_lets_a_run_keep_its_record(api, world, run_factory):
    run = run_factory()
    JiraProject.objects.filter(pk=world.project.pk).update(engagement_closed_on=timezone.localdate() + timedelta(days=1))
    response = api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/record", {"transcript": "on time\n"}, format="json")
    assert response.status_code == 200
    assert RunRecord.objects.filter(project=world.project).count() == 1


# --- a client's retention in the admin --------------------------------------------------------------


def client_form(client_row: Client, **changes) -> dict:
    data = {
        "name": client_row.name,
        "aliases": json.dumps(client_row.aliases or []),
        "repositories": json.dumps(client_row.repositories or []),
        "datasets": json.dumps(client_row.datasets or []),
        "tables": json.dumps(client_row.tables or []),
        "distinctive_tables": json.dumps(client_row.distinctive_tables or []),
        "retention_days": "",
        "_save": "Save",
    }
    data.update(changes)
    return data


def test_the_admin_warns_that_a_longer_client_retention_changes_nothing(client, world, settings):
    settings.RUN_RECORD_RETENTION_DAYS = 90
    client.force_login(world.admin)
    url = reverse("admin:stores_client_change", args=[world.client.pk])
    response = client.post(url, client_form(world.client, retention_days="365"), follow=True)
    assert response.status_code == 200
    texts = [str(m) for m in response.context["messages"]]
    assert any("365 days is longer than the default retention of 90 days" in t for t in texts), texts
    shorter = client.post(url, client_form(world.client, retention_days="30"), follow=True)
    assert not any("longer than the default" in str(m) for m in shorter.context["messages"])


def test_a_longer_client_retention_never_extends_the_default(world, settings):
    settings.RUN_RECORD_RETENTION_DAYS = 90
    Client.objects.filter(pk=world.client.pk).update(retention_days=365)
    now = timezone.now()
    make_records(world.project, now - timedelta(days=100), now - timedelta(days=80))
    out = StringIO()
    call_command("purge_run_records", "--json", stdout=out, stderr=StringIO())
    assert json.loads(out.getvalue()) == {"deleted": 1, "dry_run": False}
    assert remaining(world.project) == {now - timedelta(days=80)}


# --- bad input to the commands ------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["2026-13-01", "31/12/2026", "tomorrow", ""])
def test_close_engagement_names_the_date_format_it_wants(world, value, capsys):
    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        call_command("close_engagement", world.project.key, "--on", value, "--json")
    assert JiraProject.objects.get(pk=world.project.pk).engagement_closed_on is None


def test_close_engagement_of_an_unknown_key_names_it_and_changes_nothing(world):
    with pytest.raises(CommandError, match="NOPE"):
        call_command("close_engagement", "NOPE", "--json")
    assert not JiraProject.objects.filter(engagement_closed_on__isnull=False).exists()


def test_close_engagement_accepts_a_key_in_any_case_and_prints_the_canonical_one(world):
    out = StringIO()
    call_command("close_engagement", "acme", "--on", "2099-01-31", "--json", stdout=out, stderr=StringIO())
    assert json.loads(out.getvalue()) == {"key": "ACME", "closed_on": "2099-01-31", "deleted": 0, "dry_run": False}
    assert JiraProject.objects.get(pk=world.project.pk).engagement_closed_on == date(2099, 1, 31)
