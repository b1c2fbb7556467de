"""What the console asks Jira, and what it keeps of the answers.

Authorization (the who-check) always rests on an answer from Jira at most JIRA_CACHE_SECONDS old,
kept in Django's cache (shared by every process when Redis is configured). It never falls back to
a ``JiraTicket`` row: a row can be stale, and a stale row would let an agent that has been
reassigned away keep writing. When Jira cannot answer, ``JiraUnavailable`` propagates and the
caller refuses.

``JiraTicket`` rows are a picture of open tickets for people and reports, refreshed by the sync
job and the webhook.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from stores.console_checks.ports import TicketLookupFailed
from stores.models import JiraProject

from .client import JiraClient, JiraIssue, JiraUnavailable, normalize_issue_key
from .models import JiraTicket

__all__ = [
    "InvalidIssueUpdate",
    "JiraIssue",
    "JiraSyncResult",
    "JiraUnavailable",
    "apply_issue_update",
    "forget_ticket",
    "sync_jira",
    "sync_open_tickets",
    "sync_projects",
    "ticket_assignee",
    "ticket_lookup",
    "ticket_project_key",
]

logger = logging.getLogger(__name__)

_CACHE_PREFIX = "jira_link:issue:v1"
# The generation marker must outlive every cached answer; an hour is far beyond JIRA_CACHE_SECONDS.
_GENERATION_SECONDS = 3600
_JQL_PROJECTS_PER_QUERY = 50  # keeps each JQL string well under Jira's length limits
_BULK_BATCH = 500


class InvalidIssueUpdate(ValueError):
    """A webhook body that does not describe an issue."""


# The short cache.
#
# Each ticket's cached answer sits under a key that includes a generation marker. forget_ticket()
# replaces the marker, so an answer fetched before a reassignment (and stored after the webhook
# dropped the entry) lands under the old marker, where nobody looks. A plain delete would leave
# that race open for up to JIRA_CACHE_SECONDS.


def _cache_seconds() -> float:
    try:
        return max(0.0, float(getattr(settings, "JIRA_CACHE_SECONDS", 5)))
    except (TypeError, ValueError):
        return 0.0


def _generation_key(key: str) -> str:
    return f"{_CACHE_PREFIX}:gen:{key}"


def _entry_key(key: str, generation: str) -> str:
    return f"{_CACHE_PREFIX}:{key}:{generation}"


def _cache_call(what: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run one cache operation; a cache outage costs a Jira call, not a refusal."""
    try:
        return func(*args, **kwargs)
    except Exception:  # the cache backend's own errors (redis.ConnectionError, ...) vary by backend
        logger.warning("Django cache %s failed for the Jira lookup cache", what, exc_info=True)
        return None


def _to_cached(issue: JiraIssue | None) -> dict[str, Any]:
    return {"found": False} if issue is None else {"found": True, **asdict(issue)}


def _from_cached(value: Any) -> tuple[bool, JiraIssue | None]:
    """(hit, issue): anything unexpected in the cache counts as a miss."""
    if not isinstance(value, dict) or "found" not in value:
        return False, None
    if not value["found"]:
        return True, None
    try:
        return True, JiraIssue(
            key=value["key"],
            project_key=value["project_key"],
            assignee_account_id=value["assignee_account_id"],
            status=value["status"],
        )
    except KeyError:
        return False, None


def ticket_lookup(ticket_key: str) -> JiraIssue | None:
    """The ticket as Jira says it is now (at most JIRA_CACHE_SECONDS old), or None if Jira does not know it.

    A malformed key is unknown too. Raises JiraUnavailable when Jira is down, slow, answers wrong
    or is not configured; never answers from a ``JiraTicket`` row.
    """
    key = normalize_issue_key(ticket_key)
    if key is None:
        return None
    ttl = _cache_seconds()
    entry_key = None
    if ttl > 0:
        generation = _cache_call("get", cache.get, _generation_key(key)) or "0"
        entry_key = _entry_key(key, generation)
        hit, issue = _from_cached(_cache_call("get", cache.get, entry_key))
        if hit:
            return issue
    with JiraClient() as client:
        issue = client.get_issue(key)
    if entry_key is not None:
        _cache_call("set", cache.set, entry_key, _to_cached(issue), ttl)
    return issue


def ticket_lookup_for_checks(ticket_key: str) -> JiraIssue | None:
    """``ticket_lookup`` as the console's who-check asks it (its port): Jira failing is TicketLookupFailed."""
    try:
        return ticket_lookup(ticket_key)
    except JiraUnavailable as exc:
        raise TicketLookupFailed(str(exc)) from exc


def ticket_assignee(ticket_key: str) -> str | None:
    """The Jira accountId of the ticket's assignee; None when unassigned or when Jira does not know the ticket.

    Both None cases mean "not assigned to any agent", so the who-check refuses either way.
    Raises JiraUnavailable when Jira cannot say.
    """
    issue = ticket_lookup(ticket_key)
    return None if issue is None else issue.assignee_account_id


def ticket_project_key(ticket_key: str) -> str | None:
    """The key of the Jira project the ticket is in now, or None when Jira does not know the ticket.

    Raises JiraUnavailable when Jira cannot say.
    """
    issue = ticket_lookup(ticket_key)
    return None if issue is None else issue.project_key


def forget_ticket(ticket_key: str) -> None:
    """Drop the cached answer for this ticket, so the next lookup asks Jira.

    Also invalidates any answer still in flight (see the note on the cache above).
    """
    key = normalize_issue_key(ticket_key)
    if key is None:
        return
    old = _cache_call("get", cache.get, _generation_key(key)) or "0"
    _cache_call("set", cache.set, _generation_key(key), secrets.token_hex(8), _GENERATION_SECONDS)
    _cache_call("delete", cache.delete, _entry_key(key, old))


# The webhook.


def apply_issue_update(payload: Any) -> JiraTicket | None:
    """Record an issue event from Jira's webhook and drop the ticket's cached answer at once.

    Updates (or creates) the ticket's ``JiraTicket`` row from the fields present; a deleted issue
    removes its row and returns None. Raises InvalidIssueUpdate when the body names no issue.
    The cache is dropped rather than filled from the body, so authorization keeps resting on what
    Jira answers when asked.
    """
    if not isinstance(payload, dict) or not isinstance(payload.get("issue"), dict):
        raise InvalidIssueUpdate("The body has no issue.")
    issue = payload["issue"]
    key = normalize_issue_key(issue.get("key", ""))
    if key is None:
        raise InvalidIssueUpdate("The issue has no valid key.")
    forget_ticket(key)
    event = payload.get("webhookEvent", "")
    if event == "jira:issue_deleted":
        JiraTicket.objects.filter(key=key).delete()
        logger.info("Jira webhook: %s deleted", key)
        return None

    fields = issue.get("fields") if isinstance(issue.get("fields"), dict) else {}
    defaults: dict[str, str] = {}
    project = fields.get("project")
    if isinstance(project, dict) and isinstance(project.get("key"), str) and project["key"]:
        defaults["project_key"] = project["key"][:32]
    else:
        defaults["project_key"] = key.rsplit("-", 1)[0][:32]  # a key's prefix is its project's key
    if "assignee" in fields:  # absent means "not in this body", not "unassigned"
        assignee = fields["assignee"]
        account_id = assignee.get("accountId") if isinstance(assignee, dict) else None
        defaults["assignee_account_id"] = (account_id if isinstance(account_id, str) else "")[:128]
    status = fields.get("status")
    if isinstance(status, dict) and isinstance(status.get("name"), str):
        defaults["status"] = status["name"][:64]
    ticket, created = JiraTicket.objects.update_or_create(key=key, defaults=defaults)
    logger.info("Jira webhook: %s %s (%s)", key, "recorded" if created else "updated", event or "no event")
    return ticket


# The sync.


@dataclass(frozen=True, slots=True)
class JiraSyncResult:
    """Counts from one sync: console projects Jira lists, open tickets synced, rows removed."""

    projects: int
    tickets: int
    removed: int
    dry_run: bool

    def as_dict(self) -> dict[str, Any]:
        """The counts as a JSON-ready dict."""
        return asdict(self)


def _console_project_keys() -> set[str]:
    """Keys of the console's projects whose engagement is still open."""
    today = timezone.localdate()
    open_projects = JiraProject.objects.filter(
        Q(engagement_closed_on__isnull=True) | Q(engagement_closed_on__gt=today)
    )
    return {key.upper() for key in open_projects.values_list("key", flat=True)}


def _projects_in_jira(client: JiraClient) -> list[str]:
    """The console's open projects that Jira lists; the others are logged, not synced.

    A project key Jira does not know would make the whole JQL search fail, so only these are searched.
    """
    console_keys = _console_project_keys()
    if not console_keys:
        return []
    jira_keys = {project.key.upper() for project in client.list_projects()}
    missing = sorted(console_keys - jira_keys)
    if missing:
        logger.warning(
            "Jira sync: %d console projects not visible in Jira: %s", len(missing), ", ".join(missing)
        )
    return sorted(console_keys & jira_keys)


def _open_tickets_jql(project_keys: Iterable[str]) -> str:
    quoted = ", ".join('"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"' for key in project_keys)
    return f"project in ({quoted}) AND statusCategory != Done ORDER BY key ASC"


def _sync_tickets(client: JiraClient, project_keys: list[str], *, dry_run: bool) -> tuple[int, int]:
    """Fetch every open ticket of these projects, then upsert them and remove the rest: (synced, removed).

    Everything is fetched before anything is written, so a Jira failure mid-way changes nothing.
    Rows of these projects that Jira no longer lists as open (done, moved, deleted) are removed,
    unless the webhook touched them after the sync began.
    """
    if not project_keys:
        return 0, 0
    started = timezone.now()
    found: dict[str, JiraIssue] = {}
    for i in range(0, len(project_keys), _JQL_PROJECTS_PER_QUERY):
        for issue in client.search_issues(_open_tickets_jql(project_keys[i : i + _JQL_PROJECTS_PER_QUERY])):
            found[issue.key] = issue
    stale = JiraTicket.objects.filter(project_key__in=project_keys, synced_at__lt=started)
    if dry_run:
        return len(found), stale.exclude(key__in=list(found)).count()
    with transaction.atomic():
        JiraTicket.objects.bulk_create(
            [
                JiraTicket(
                    key=issue.key[:64],
                    project_key=issue.project_key[:32],
                    assignee_account_id=(issue.assignee_account_id or "")[:128],
                    status=issue.status[:64],
                )
                for issue in found.values()
            ],
            batch_size=_BULK_BATCH,
            update_conflicts=True,
            unique_fields=["key"],
            update_fields=["project_key", "assignee_account_id", "status", "synced_at"],
        )
        # Upserted rows now carry synced_at after `started`; what is left is no longer open.
        removed, _ = stale.delete()
    return len(found), removed


def sync_projects() -> int:
    """How many of the console's open projects Jira lists; the others are logged by key.

    Writes nothing: a console project needs a client and people's choices, so Jira's list only
    confirms which projects the sync can search. Raises JiraUnavailable.
    """
    with JiraClient() as client:
        count = len(_projects_in_jira(client))
    logger.info("Jira sync: %d console projects listed by Jira", count)
    return count


def sync_open_tickets(*, dry_run: bool = False) -> int:
    """Refresh ``JiraTicket`` rows with every open ticket of the console's projects; the number synced.

    With dry_run, counts what it would sync and writes nothing. Raises JiraUnavailable, in which
    case nothing was written.
    """
    with JiraClient() as client:
        tickets, removed = _sync_tickets(client, _projects_in_jira(client), dry_run=dry_run)
    logger.info(
        "Jira sync: %d open tickets, %d rows removed%s", tickets, removed, " (dry run)" if dry_run else ""
    )
    return tickets


def sync_jira(*, dry_run: bool = False, progress: Callable[[str], None] | None = None) -> JiraSyncResult:
    """Projects, then open tickets, in one pass sharing one connection; returns the counts.

    ``progress`` receives a line of text before each step (the management command prints it).
    With dry_run, counts what it would sync and writes nothing. Raises JiraUnavailable, in which
    case nothing was written.
    """
    say = progress or (lambda _line: None)
    with JiraClient() as client:
        say("Listing Jira projects...")
        project_keys = _projects_in_jira(client)
        say(f"{len(project_keys)} console projects listed by Jira. Fetching open tickets...")
        tickets, removed = _sync_tickets(client, project_keys, dry_run=dry_run)
    result = JiraSyncResult(projects=len(project_keys), tickets=tickets, removed=removed, dry_run=dry_run)
    logger.info(
        "Jira sync: %d projects, %d open tickets, %d rows removed%s",
        result.projects,
        result.tickets,
        result.removed,
        " (dry run)" if dry_run else "",
    )
    return result
