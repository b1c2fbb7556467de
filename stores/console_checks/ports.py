"""What the checks ask of the world outside the console's own tables: one port, the ticket lookup.

The who-check must know whether a run's ticket is assigned to the agent, which only Jira can say.
The checks do not import the Jira link (it is built on the stores app, not the reverse): the Jira
link provides its lookup here once, in its ``AppConfig.ready()``, and a caller (a test, a tool)
may also pass one to ``check_who`` directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class TicketLookupFailed(Exception):
    """The ticket system could not answer (down, slow, misconfigured); the message says why."""


class Ticket(Protocol):
    """A ticket as the ticket system says it is now."""

    project_key: str
    assignee_account_id: str | None


# Returns the ticket as it is now, or None when the ticket system does not know the key;
# raises TicketLookupFailed when it cannot be asked.
TicketLookup = Callable[[str], "Ticket | None"]


def _no_lookup(key: str) -> Ticket | None:
    raise TicketLookupFailed("no ticket system is configured")


_ticket_lookup: TicketLookup = _no_lookup


def provide_ticket_lookup(lookup: TicketLookup) -> None:
    """Set the lookup the who-check uses when none is passed to it (the Jira link's, at start-up)."""
    global _ticket_lookup
    _ticket_lookup = lookup


def ticket_lookup() -> TicketLookup:
    """The lookup provided at start-up (one that always fails when nothing provided one)."""
    return _ticket_lookup
