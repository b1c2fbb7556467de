"""The who-check asks about a run's ticket through its port (a lookup passed in, or the one the
Jira link provided), and the pod-or-assigned rule is the same one the run service asks."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest

from runs.models import Run
from stores.console_checks import ports
from stores.console_checks.ports import TicketLookupFailed
from stores.console_checks.request import ChangeRequest, Writer
from stores.console_checks.who import check_who, pod_or_assigned
from stores.operations import Operation

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Ticket:
    project_key: str
    assignee_account_id: str | None


def _outsider_run(world) -> Run:
    """A run of the agent outside the project's pod, on one of the project's tickets."""
    return Run.objects.create(
        agent=world.outsider, project=world.project, ticket_key="ACME-7", token_hash=uuid.uuid4().hex
    )


def _write(world, run: Run) -> ChangeRequest:
    return ChangeRequest(
        writer=Writer(agent=world.outsider, run=run), store=world.project_store, operation=Operation.CREATE,
        path="/solutions/fix.md", content="A fix.\n",
    )


def test_a_lookup_passed_in_decides_for_the_run_ticket(world):
    req = _write(world, _outsider_run(world))
    asked = []

    def assigned(key):
        asked.append(key)
        return Ticket("ACME", world.outsider.jira_account_id)

    assert check_who(req, ticket_lookup=assigned) is None
    assert asked == ["ACME-7"]
    assert check_who(req, ticket_lookup=lambda key: Ticket("ACME", "someone-else")).code == "not_in_pod_or_assigned"
    # Moved to another project: no longer this project's ticket, whoever it is assigned to.
    moved = check_who(req, ticket_lookup=lambda key: Ticket("OTHR", world.outsider.jira_account_id))
    assert moved.code == "not_in_pod_or_assigned" and "now in OTHR" in moved.message


def test_a_failing_lookup_is_jira_unavailable(world):
    def down(key):
        raise TicketLookupFailed("Jira could not be reached")

    decision = check_who(_write(world, _outsider_run(world)), ticket_lookup=down)
    assert decision.code == "jira_unavailable" and "could not be reached" in decision.message


def test_the_jira_link_provides_the_default_lookup():
    from jira_link.services import ticket_lookup_for_checks

    assert ports.ticket_lookup() is ticket_lookup_for_checks


def test_a_pod_covering_the_project_never_asks_jira(world):
    def never(key):
        raise AssertionError("Jira was asked")

    assert pod_or_assigned(world.agent, world.project, "ACME-7", never) is None
    refusal = pod_or_assigned(world.outsider, world.project, None, never)
    assert refusal.code == "not_in_pod_or_assigned" and refusal.why == "no_ticket"
