"""The sync_jira command, the Celery task and the admin: the same sync, from each door."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from jira_link.models import JiraTicket
from jira_link.services import JiraUnavailable
from jira_link.tasks import sync_jira_task


@pytest.fixture
def jira_with_tickets(jira_standin, console_project):
    console_project("ABC")
    for n in range(1, 4):
        jira_standin.set_issue(f"ABC-{n}", "ABC", f"acct-{n}")
    jira_standin.set_issue("ABC-4", "ABC", "acct-4", status="Done")
    return jira_standin


def run_command(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("sync_jira", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_command_json_prints_one_object_and_progress_on_stderr(jira_with_tickets):
    out, err = run_command("--json")

    assert json.loads(out) == {"projects": 1, "tickets": 3, "removed": 0, "dry_run": False}
    assert "Listing Jira projects" in err
    assert JiraTicket.objects.count() == 3


@pytest.mark.django_db
def test_command_dry_run_writes_nothing(jira_with_tickets):
    out, _ = run_command("--json", "--dry-run")

    assert json.loads(out) == {"projects": 1, "tickets": 3, "removed": 0, "dry_run": True}
    assert not JiraTicket.objects.exists()


@pytest.mark.django_db
def test_command_plain_output(jira_with_tickets):
    out, _ = run_command()

    assert out.strip() == "Synced 3 open tickets from 1 projects (0 rows removed)."


@pytest.mark.django_db
def test_command_fails_cleanly_when_jira_is_down(jira_with_tickets):
    jira_with_tickets.down()

    with pytest.raises(CommandError, match="nothing was written"):
        run_command("--json")


@pytest.mark.django_db
def test_task_returns_a_small_summary(jira_with_tickets):
    assert sync_jira_task() == {"projects": 1, "tickets": 3, "removed": 0, "dry_run": False}
    # apply() runs the task here through Celery's machinery, with or without a broker (REDIS_URL).
    assert sync_jira_task.apply(kwargs={"dry_run": True}).get() == {
        "projects": 1,
        "tickets": 3,
        "removed": 0,
        "dry_run": True,
    }


@pytest.mark.django_db
def test_task_raises_when_jira_is_down(jira_with_tickets):
    jira_with_tickets.down()

    with pytest.raises(JiraUnavailable):
        sync_jira_task()


@pytest.mark.django_db
def test_admin_shows_tickets_read_only(admin_client):
    ticket = JiraTicket.objects.create(key="ABC-1", project_key="ABC", assignee_account_id="acct-7")

    assert admin_client.get("/admin/jira_link/jiraticket/").status_code == 200
    assert admin_client.get(f"/admin/jira_link/jiraticket/{ticket.pk}/change/").status_code == 200
    assert admin_client.get("/admin/jira_link/jiraticket/add/").status_code == 403
    assert (
        admin_client.post(f"/admin/jira_link/jiraticket/{ticket.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert JiraTicket.objects.filter(pk=ticket.pk).exists()
