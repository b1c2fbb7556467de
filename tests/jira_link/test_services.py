"""Ticket lookups with the short cache, and the sync, against the Jira stand-in."""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from django.utils import timezone

from jira_link import client as jira_client
from jira_link.models import JiraTicket
from jira_link.services import (
    JiraSyncResult,
    JiraUnavailable,
    forget_ticket,
    sync_jira,
    sync_open_tickets,
    sync_projects,
    ticket_assignee,
    ticket_lookup,
    ticket_project_key,
)

ABC_1 = "/rest/api/3/issue/ABC-1"


def test_jira_unavailable_is_the_clients_error():
    assert JiraUnavailable is jira_client.JiraUnavailable


def test_ticket_assignee_asks_jira(jira_standin):
    jira_standin.set_issue("ABC-1", "ABC", "acct-7")
    jira_standin.set_issue("ABC-2", "ABC", None)

    assert ticket_assignee("ABC-1") == "acct-7"
    assert ticket_assignee("ABC-2") is None
    assert ticket_project_key("ABC-1") == "ABC"


def test_unknown_ticket_looks_up_as_none(jira_standin):
    assert ticket_lookup("ABC-999") is None
    assert ticket_assignee("ABC-999") is None
    assert ticket_project_key("ABC-999") is None
    assert ticket_lookup("not a key") is None


def test_a_burst_of_lookups_costs_one_jira_call(jira_standin):
    jira_standin.set_issue("ABC-1", "ABC", "acct-7")

    answers = [ticket_assignee("ABC-1") for _ in range(5)] + [ticket_project_key("abc-1")]

    assert answers == ["acct-7"] * 5 + ["ABC"]
    assert jira_standin.requests_count(ABC_1) == 1


def test_unknown_ticket_answer_is_cached_too(jira_standin):
    assert ticket_lookup("ABC-9") is None
    assert ticket_lookup("ABC-9") is None
    assert jira_standin.requests_count("/rest/api/3/issue/ABC-9") == 1


def test_after_the_ttl_jira_is_asked_again(jira_standin, settings):
    settings.JIRA_CACHE_SECONDS = 1  # whole seconds: Redis truncates a cache timeout to an int
    jira_standin.set_issue("ABC-1", "ABC", "acct-7")
    assert ticket_assignee("ABC-1") == "acct-7"
    jira_standin.set_issue("ABC-1", "ABC", "acct-8")

    assert ticket_assignee("ABC-1") == "acct-7"  # within the TTL: the cached answer
    time.sleep(1.1)
    assert ticket_assignee("ABC-1") == "acct-8"
    assert jira_standin.requests_count(ABC_1) == 2


def test_no_cache_when_cache_seconds_is_zero(jira_standin, settings):
    settings.JIRA_CACHE_SECONDS = 0
    jira_standin.set_issue("ABC-1", "ABC", "acct-7")

    ticket_assignee("ABC-1")
    ticket_assignee("ABC-1")

    assert jira_standin.requests_count(ABC_1) == 2


def test_forget_ticket_makes_the_next_lookup_ask_jira(jira_standin):
    jira_standin.set_issue("ABC-1", "ABC", "acct-7")
    assert ticket_assignee("ABC-1") == "acct-7"
    jira_standin.set_issue("ABC-1", "ABC", "acct-8")

    forget_ticket("abc-1")

    assert ticket_assignee("ABC-1") == "acct-8"
    assert jira_standin.requests_count(ABC_1) == 2


def test_an_answer_in_flight_when_the_ticket_is_forgotten_is_not_served_afterwards(jira_standin):
    """Jira answered with the old assignee, the webhook dropped the entry, then the old answer arrived."""
    jira_standin.set_issue("ABC-1", "ABC", "acct-old")
    old_answer = jira_standin.issue_response("ABC-1", ["project", "assignee", "status"])
    in_handler = threading.Event()

    def answer_late(_request):
        in_handler.set()
        time.sleep(0.5)
        return old_answer

    jira_standin.server.expect_oneshot_request(ABC_1).respond_with_handler(answer_late)
    seen: list[str | None] = []
    lookup = threading.Thread(target=lambda: seen.append(ticket_assignee("ABC-1")))
    lookup.start()
    assert in_handler.wait(2)
    jira_standin.set_issue("ABC-1", "ABC", "acct-new")  # reassigned in Jira ...
    forget_ticket("ABC-1")  # ... and the webhook arrives while the old answer is in flight
    lookup.join(5)

    assert seen == ["acct-old"]
    assert ticket_assignee("ABC-1") == "acct-new"


@pytest.mark.django_db
def test_jira_down_refuses_even_with_a_ticket_row(jira_standin):
    """A stale row would let a reassigned agent write: never fall back to it."""
    JiraTicket.objects.create(key="ABC-1", project_key="ABC", assignee_account_id="acct-7")
    jira_standin.down()

    with pytest.raises(JiraUnavailable):
        ticket_assignee("ABC-1")


def test_jira_failure_is_not_cached(jira_standin):
    jira_standin.set_issue("ABC-1", "ABC", "acct-7")
    jira_standin.wrong("500")
    with pytest.raises(JiraUnavailable):
        ticket_assignee("ABC-1")

    jira_standin.healthy()

    assert ticket_assignee("ABC-1") == "acct-7"


def test_slow_jira_is_unavailable(jira_standin, fast_timeout):
    jira_standin.set_issue("ABC-1", "ABC", "acct-7")
    jira_standin.slow(fast_timeout + 0.5)

    with pytest.raises(JiraUnavailable, match="did not answer"):
        ticket_assignee("ABC-1")


# The sync.


@pytest.fixture
def three_projects(jira_standin, console_project):
    """ABC and XYZ open in the console and in Jira; OLD closed; GONE not in Jira; NOTOURS only in Jira."""
    console_project("ABC")
    console_project("XYZ")
    console_project("OLD", closed_on=timezone.localdate() - dt.timedelta(days=1))
    console_project("GONE")
    for n in range(1, 5):
        jira_standin.set_issue(f"ABC-{n}", "ABC", f"acct-{n}")
    jira_standin.set_issue("ABC-5", "ABC", "acct-5", status="Done")
    jira_standin.set_issue("XYZ-1", "XYZ", None, status="To Do")
    jira_standin.set_issue("OLD-1", "OLD", "acct-1")
    jira_standin.set_issue("NOTOURS-1", "NOTOURS", "acct-1")
    return jira_standin


@pytest.mark.django_db
def test_sync_projects_counts_console_projects_jira_lists(three_projects, caplog):
    assert sync_projects() == 2
    assert "GONE" in caplog.text


@pytest.mark.django_db
def test_sync_records_open_tickets_of_open_projects(three_projects):
    result = sync_jira()

    assert result == JiraSyncResult(projects=2, tickets=5, removed=0, dry_run=False)
    rows = {t.key: (t.project_key, t.assignee_account_id, t.status) for t in JiraTicket.objects.all()}
    assert rows == {
        "ABC-1": ("ABC", "acct-1", "In Progress"),
        "ABC-2": ("ABC", "acct-2", "In Progress"),
        "ABC-3": ("ABC", "acct-3", "In Progress"),
        "ABC-4": ("ABC", "acct-4", "In Progress"),
        "XYZ-1": ("XYZ", "", "To Do"),
    }
    assert three_projects.jql_seen == [
        'project in ("ABC", "XYZ") AND statusCategory != Done ORDER BY key ASC'
    ]


@pytest.mark.django_db
def test_sync_twice_changes_nothing_more(three_projects):
    first = sync_jira()
    rows = list(JiraTicket.objects.values_list("key", "project_key", "assignee_account_id", "status"))

    assert sync_jira() == first
    assert list(JiraTicket.objects.values_list("key", "project_key", "assignee_account_id", "status")) == rows


@pytest.mark.django_db
def test_sync_updates_reassigned_and_removes_closed_tickets(three_projects):
    sync_jira()
    three_projects.set_issue("ABC-1", "ABC", "acct-9")
    three_projects.set_issue("ABC-2", "ABC", "acct-2", status="Done")
    three_projects.remove_issue("ABC-3")
    JiraTicket.objects.create(key="OLD-7", project_key="OLD", assignee_account_id="acct-1")

    result = sync_jira()

    assert (result.tickets, result.removed) == (3, 2)
    assert set(JiraTicket.objects.values_list("key", flat=True)) == {"ABC-1", "ABC-4", "XYZ-1", "OLD-7"}
    assert JiraTicket.objects.get(key="ABC-1").assignee_account_id == "acct-9"


@pytest.mark.django_db
def test_sync_dry_run_counts_and_writes_nothing(three_projects):
    JiraTicket.objects.create(key="ABC-77", project_key="ABC")

    result = sync_jira(dry_run=True)

    assert result == JiraSyncResult(projects=2, tickets=5, removed=1, dry_run=True)
    assert list(JiraTicket.objects.values_list("key", flat=True)) == ["ABC-77"]


@pytest.mark.django_db
def test_sync_pages_through_many_tickets(three_projects):
    three_projects.search_page_cap = 2

    assert sync_open_tickets() == 5
    assert three_projects.requests_count("/rest/api/3/search/jql") == 3


@pytest.mark.django_db
def test_sync_failing_midway_writes_nothing(three_projects):
    JiraTicket.objects.create(key="ABC-77", project_key="ABC")
    three_projects.search_page_cap = 2
    three_projects.wrong("500", after=2)  # the project list and the first page answer; the second fails

    with pytest.raises(JiraUnavailable):
        sync_jira()

    assert list(JiraTicket.objects.values_list("key", flat=True)) == ["ABC-77"]


@pytest.mark.django_db
def test_sync_with_no_console_projects_asks_jira_nothing(jira_standin):
    assert sync_jira() == JiraSyncResult(projects=0, tickets=0, removed=0, dry_run=False)
    assert jira_standin.server.log == []
