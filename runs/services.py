"""Run changes: start, end, lesson prompts and answers, records, and a project's rulings.

Interfaces (the run API, the admin, management commands, Celery tasks) call these and nothing
else to change a run. Each function decides under a row lock or a conditional update, so a
repeated request or a second delivery of a task changes nothing twice.
"""

from __future__ import annotations

import logging
import re
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from jira_link.client import normalize_issue_key
from jira_link.services import JiraUnavailable, ticket_lookup
from stores.console_checks.ports import TicketLookupFailed
from stores.console_checks.reasons import Reason, refusal_error
from stores.console_checks.request import Writer
from stores.console_checks.who import pod_or_assigned
from stores.errors import Conflict, InvalidRequest, NotFound, PermissionDenied
from stores.models import HostedAgent, JiraProject, StandingDecision, Store, StoreKind, hash_token
from stores.services.governance import promotion_rule
from stores.services.redaction import redacted_texts
from stores.services.tokens import RUN_TOKEN_PREFIX
from stores.services.version_hooks import VersionWritten

from .models import Run, RunRecord
from .search import record_index_settle

logger = logging.getLogger(__name__)

READ_WRITE = "read_write"
READ_ONLY = "read_only"


def run_note_write(run: Run, version_id: str) -> None:
    """Count a version the run wrote; the first one after a lesson prompt answers it."""
    Run.objects.filter(pk=run.pk).update(versions_written=F("versions_written") + 1)
    Run.objects.filter(
        pk=run.pk, lesson_prompted_at__isnull=False, lesson_answered_at__isnull=True,
        lesson_closed_unanswered_at__isnull=True,
    ).update(lesson_answered_at=timezone.now(), lesson_nothing_to_record=False, lesson_memory_version_id=version_id)


def run_version_written(event: VersionWritten) -> None:
    """The memory services' version hook (registered in ``RunsConfig.ready``): a run's version counts."""
    if event.writer.run is not None:
        run_note_write(event.writer.run, event.version_id)


# Starting a run.


def folder_slug(name: str) -> str:
    """A folder name from a store's or toolset's name: lower case, runs of other characters as one '-'."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or "store"


def _attachment(store: Store, access: str, folder: str) -> dict[str, str]:
    return {
        "memory_store_id": store.public_id,
        "kind": store.kind,
        "name": store.name,
        "access": access,
        "folder": folder,
    }


def run_attachments(agent: HostedAgent, project: JiraProject) -> list[dict[str, str]]:
    """The stores a run on this project gets, with access and folder, in a stable order.

    The project's store and the agent's own are read-write; the practice store, the shared
    stores and the project's toolset stores are read-only. Archived stores are not attached.
    """
    live = Store.objects.filter(archived_at__isnull=True)
    out: list[dict[str, str]] = []
    if (store := live.filter(kind=StoreKind.PROJECT, project=project).first()) is not None:
        out.append(_attachment(store, READ_WRITE, "project"))
    if (store := live.filter(kind=StoreKind.AGENT, agent=agent).first()) is not None:
        out.append(_attachment(store, READ_WRITE, "agent"))
    if (store := live.filter(kind=StoreKind.PRACTICE).first()) is not None:
        out.append(_attachment(store, READ_ONLY, "practice"))
    taken: set[str] = set()
    for store in live.filter(kind=StoreKind.SHARED).order_by("name", "created_at", "pk"):
        out.append(_attachment(store, READ_ONLY, f"shared/{_unique_slug(store.name, taken)}"))
    taken = set()
    toolset_stores = live.filter(kind=StoreKind.TOOLSET, toolset__projects=project).select_related("toolset")
    for store in toolset_stores.order_by("toolset__name", "pk"):
        out.append(_attachment(store, READ_ONLY, f"toolsets/{_unique_slug(store.toolset.name, taken)}"))
    return out


def _unique_slug(name: str, taken: set[str]) -> str:
    """The name's folder slug, numbered when another store of the run took it ("dbt core", "dbt-core")."""
    slug, n = folder_slug(name), 1
    while (f"{slug}-{n}" if n > 1 else slug) in taken:
        n += 1
    slug = f"{slug}-{n}" if n > 1 else slug
    taken.add(slug)
    return slug


def _project_for_ticket(agent: HostedAgent, raw_key: Any) -> tuple[str, JiraProject]:
    """The ticket's key and console project, once the agent may work it; refusals raise.

    The agent may work the ticket when one of its pods covers the project, or when Jira itself
    says the ticket is assigned to it. Jira is always asked (to tell unknown tickets apart); when
    it cannot answer, the pod rule alone decides.
    """
    if not isinstance(raw_key, str) or not raw_key.strip():
        raise InvalidRequest("`ticket_key` is required: the Jira key of the ticket, such as ACME-123.")
    key = normalize_issue_key(raw_key)
    if key is None:
        raise NotFound(f"{raw_key.strip()!r} is not a Jira ticket key.", code=Reason.UNKNOWN_TICKET)
    jira_error: JiraUnavailable | None = None
    issue = None
    try:
        issue = ticket_lookup(key)
    except JiraUnavailable as exc:
        jira_error = exc
    if jira_error is None and issue is None:
        raise NotFound(f"Jira does not know the ticket {key}.", code=Reason.UNKNOWN_TICKET)
    project_key = issue.project_key if issue is not None else key.rsplit("-", 1)[0]
    project = JiraProject.objects.select_related("client").filter(key__iexact=project_key).first()
    if project is None:
        # Not a Jira outage: whatever Jira says, no run starts on a project the console has no
        # record of, so the answer is the same (and final) whether or not Jira could be asked.
        raise NotFound(
            f"The Jira project {project_key} of {key} is not registered in the console; an operator adds it with "
            f"`manage.py add_project {project_key} --client NAME`, then the run can start.",
            code=Reason.UNKNOWN_TICKET,
        )

    def asked_already(_key: str):
        # Jira was asked above; the rule gets that answer rather than asking again.
        if jira_error is not None:
            raise TicketLookupFailed(str(jira_error))
        return issue

    refusal = pod_or_assigned(agent, project, key, asked_already)
    if refusal is not None:
        if refusal.why == "jira_unavailable":
            raise refusal_error(
                f"{agent.name} is in no pod covering {project.key}, and Jira could not confirm that {key} is "
                f"assigned to it ({refusal.detail}). Try again shortly.",
                code=refusal.code,
            )
        raise refusal_error(
            f"{agent.name} is in no pod covering {project.key}, and Jira says {key} is not assigned to it.",
            code=refusal.code,
        )
    closed_on = project.engagement_closed_on
    if closed_on is not None and closed_on <= timezone.localdate():
        raise PermissionDenied(
            f"The engagement on {project.key} closed on {closed_on.isoformat()}; no new runs start on its tickets.",
            code=Reason.ENGAGEMENT_CLOSED,
        )
    return key, project


def _refuse_if_client_busy(agent: HostedAgent, project: JiraProject) -> None:
    """Refuse while the agent has an active run for another client, where either client works one at a time."""
    client = project.client
    active = (
        Run.objects.filter(agent=agent, ended_at__isnull=True)
        .exclude(project__client=client)
        .select_related("project__client")
        .order_by("started_at", "pk")
    )
    for other in active:
        other_client = other.project.client
        if client.one_client_at_a_time or other_client.one_client_at_a_time:
            flagged = client if client.one_client_at_a_time else other_client
            raise Conflict(
                f"{agent.name} has an active run {other.public_id} on {other.ticket_key} for {other_client.name}, "
                f"and {flagged.name} is worked one client at a time. End {other.public_id} first.",
                code=Reason.CLIENT_BUSY,
                extra={"active_run_id": other.public_id},
            )


def require_run_starter(writer: Writer) -> None:
    """Refuse (403) anyone but an active hosted agent with its own token: only they start runs.

    The API asks this before it reads the body, so the refusal comes first whatever the body holds.
    """
    if not writer.is_agent:
        raise refusal_error(
            "Runs are started by hosted agents with their own token.", code=Reason.NOT_A_HOSTED_AGENT
        )
    if writer.run is not None:
        raise PermissionDenied(
            "A run token cannot start another run; use the agent's own token.", code=Reason.AGENT_TOKEN_REQUIRED
        )
    if not writer.agent.active:
        raise refusal_error(f"{writer.agent.name} is not an active hosted agent.", code=Reason.NOT_A_HOSTED_AGENT)


def run_start(*, writer: Writer, ticket_key: Any, host: Any = "") -> tuple[Run, str]:
    """Start a run for the agent on a ticket it may work. Returns the run and its token, shown once.

    Only the agent's own token starts a run. The token starts with ``mcr_`` and is kept hashed.
    """
    require_run_starter(writer)
    agent = writer.agent
    if host is None:
        host = ""
    if not isinstance(host, str):
        raise InvalidRequest("`host` must be a string: the machine the run works on.")
    key, project = _project_for_ticket(agent, ticket_key)
    secret = RUN_TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        # One start at a time per agent, so two starts cannot both pass the busy check.
        HostedAgent.objects.select_for_update().filter(pk=agent.pk).first()
        _refuse_if_client_busy(agent, project)
        run = Run.objects.create(
            agent=agent,
            project=project,
            ticket_key=key,
            host=host.strip(),  # the field scrubs it and keeps at most 255 characters
            token_hash=hash_token(secret),
            attachments=run_attachments(agent, project),
        )
    logger.info("run %s started by %s on %s", run.public_id, agent.name, key)
    return run, secret


# Ending a run and its lesson prompt.


def _flag(data: dict[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise InvalidRequest(f"`{name}` must be true or false.")
    return value


def run_signals(data: dict[str, Any]) -> dict[str, Any]:
    """The end-of-run signals from a request body, checked: three flags and a count of attempts."""
    attempts = data.get("attempts", 1)
    if attempts is None:
        attempts = 1
    if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
        raise InvalidRequest("`attempts` must be a whole number of 1 or more.")
    return {
        "qa_failed": _flag(data, "qa_failed"),
        "needed_ruling": _flag(data, "needed_ruling"),
        "worked_past_error": _flag(data, "worked_past_error"),
        "attempts": attempts,
    }


def lesson_signals(run: Run) -> list[str]:
    """What made this run worth a lesson, in words; empty for a routine run."""
    found = []
    if run.qa_failed:
        found.append("hit a QA failure")
    if run.needed_ruling:
        found.append("needed a ruling")
    if run.worked_past_error:
        found.append("worked past an error")
    if run.attempts > 1:
        found.append(f"took {run.attempts} attempts")
    return found


def lesson_prompt_text(run: Run) -> str:
    """The question put to the agent once, at the end of a run that hit trouble and saved nothing."""
    found = lesson_signals(run)
    what = ", ".join(found[:-1]) + (" and " if len(found) > 1 else "") + found[-1]
    return (
        f"This run on {run.ticket_key} {what}, and saved nothing to memory. "
        "If it taught something that will still be true and useful a month from now, record it once as a "
        "lesson: the fact, the evidence and the ticket key. Put it in the project store (/solutions/ for a fix "
        "that worked, /issues/ for an open problem, /data/ for a data quirk, /conventions/ for the client's "
        "conventions, /rationale/ for why a choice was made, pointing to the standing decision or ruling "
        f"behind it), or under /agents/{run.agent.name}/ for your own notes on the project; a lesson about "
        "tools, Wire commands or your role, with no client detail, goes in your own store. "
        "Task state, progress and next steps do not belong in memory. "
        "If there is nothing worth recording, say so and why: "
        "`memory-sync answer DIR --nothing-to-record WHY`, or "
        f'POST /api/v1/runs/{run.public_id}/lesson with {{"nothing_to_record": true, "why": "..."}}.'
    )


def run_end(*, run: Run, signals: dict[str, Any]) -> Run:
    """End the run with its signals and decide the lesson prompt at once; a second end changes nothing.

    The agent is asked when a signal is set (more than one attempt counts) and the run saved no
    version. Nobody is asked twice: the decision is made once, under the run's row lock.
    """
    with transaction.atomic():
        locked = Run.objects.select_for_update().select_related("agent", "project").get(pk=run.pk)
        if locked.ended_at is not None:
            return locked
        now = timezone.now()
        for name, value in signals.items():
            setattr(locked, name, value)
        changes: dict[str, Any] = {"ended_at": now, **signals}
        if lesson_signals(locked) and locked.versions_written == 0 and locked.lesson_prompted_at is None:
            changes["lesson_prompt"] = lesson_prompt_text(locked)
            changes["lesson_prompted_at"] = now
        # The conditional update is the claim: a concurrent end that got here first wins.
        Run.objects.filter(pk=locked.pk, ended_at__isnull=True).update(**changes)
        locked.refresh_from_db()
    logger.info("run %s ended%s", locked.public_id, " with a lesson prompt" if locked.lesson_prompted_at else "")
    return locked


def run_lesson_answer(*, run: Run, nothing_to_record: Any, why: Any) -> Run:
    """Answer the run's lesson prompt with "nothing to record" and why. A second answer is refused.

    The other answer, a lesson, is a version written with the run token (``run_note_write``).
    """
    if nothing_to_record is not True:
        raise InvalidRequest(
            'Send {"nothing_to_record": true, "why": "..."}; to record a lesson instead, write it with the run token.'
        )
    if not isinstance(why, str) or not why.strip():
        raise InvalidRequest("`why` is required: say in a sentence why the run left nothing worth recording.")
    # The field scrubs the answer of secrets, then keeps at most WHY_MAX_CHARS characters of it.
    why_text = why.strip()
    with transaction.atomic():
        locked = Run.objects.select_for_update().get(pk=run.pk)
        if locked.lesson_prompted_at is None:
            raise Conflict(
                "This run was not asked for a lesson: only runs that hit trouble and saved nothing are asked.",
                code=Reason.NO_LESSON_PROMPT,
            )
        if locked.lesson_answered_at is not None:
            raise Conflict("The lesson prompt of this run was answered already.", code=Reason.ALREADY_ANSWERED)
        if locked.lesson_closed_unanswered_at is not None:
            raise Conflict(
                "The lesson prompt of this run was closed unanswered after "
                f"{settings.LESSON_PROMPT_TIMEOUT_HOURS} hours.",
                code=Reason.LESSON_PROMPT_CLOSED,
            )
        updated = Run.objects.filter(
            pk=locked.pk, lesson_answered_at__isnull=True, lesson_closed_unanswered_at__isnull=True
        ).update(lesson_answered_at=timezone.now(), lesson_nothing_to_record=True, lesson_why=why_text)
        if not updated:  # a lesson version landed between the read and the update
            raise Conflict("The lesson prompt of this run was answered already.", code=Reason.ALREADY_ANSWERED)
        locked.refresh_from_db()
    return locked


def lesson_prompts_close(*, now: datetime | None = None, batch_size: int = 500) -> int:
    """Close lesson prompts left unanswered longer than LESSON_PROMPT_TIMEOUT_HOURS; returns how many.

    Each batch is claimed by a conditional update, so two workers never close one prompt twice and
    an answer that lands first wins. The cutoff is computed on every call.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.LESSON_PROMPT_TIMEOUT_HOURS)
    open_prompts = Run.objects.filter(
        lesson_prompted_at__isnull=False,
        lesson_prompted_at__lte=cutoff,
        lesson_answered_at__isnull=True,
        lesson_closed_unanswered_at__isnull=True,
    )
    closed = 0
    while True:
        ids = list(open_prompts.order_by("pk").values_list("pk", flat=True)[:batch_size])
        if not ids:
            break
        with transaction.atomic():
            closed += open_prompts.filter(pk__in=ids).update(lesson_closed_unanswered_at=now)
        if len(ids) < batch_size:
            break
    logger.info("closed %d lesson prompts left unanswered", closed)
    return closed


# The run's record.


def run_record_add(*, run: Run, transcript: Any = None, events: Any = None) -> RunRecord:
    """Keep the run's record; its fields replace every secret by ``[REDACTED:<type>]`` as it is stored."""
    if transcript is None and events is None:
        raise InvalidRequest('Send {"transcript": "..."} or {"events": [...]}: the full record of the run.')
    if transcript is not None and not isinstance(transcript, str):
        raise InvalidRequest("`transcript` must be a string.")
    if events is not None and not isinstance(events, list):
        raise InvalidRequest("`events` must be a list.")
    # Once the engagement has closed its records are deleted; a run still going then keeps none.
    closed_on = JiraProject.objects.filter(pk=run.project_id).values_list("engagement_closed_on", flat=True).first()
    if closed_on is not None and closed_on <= timezone.localdate():
        raise PermissionDenied(
            f"The engagement on {run.project.key} closed on {closed_on.isoformat()}; its run records are deleted "
            "and no new ones are kept.",
            code=Reason.ENGAGEMENT_CLOSED,
        )
    return RunRecord.objects.create(
        run=run,
        project_id=run.project_id,
        created_at=timezone.now(),
        transcript=transcript or "",
        events=events,
    )


def run_records_scrub_memory(*, memory, texts: list[str]) -> int:
    """Replace every quote of a redacted memory's texts in run records by ``[REDACTED:memory]``.

    A quote is a whole text or a longer line of one, or any passage of ``PASSAGE_WORDS``
    consecutive words of one (``stores.services.redaction.redacted_texts``): a record that quoted
    a note in part loses that part too. Registered as a redaction hook. Every record of the runs
    that could have read the memory is read (its project's runs, its agent's runs, or every run
    for the read-only stores): the record index drops common words and punctuation, so it cannot
    tell which records quote a text, and a redaction must miss none. The search index's text
    changes with each record (it is the database's own, see runs.search), so no quote stays
    findable or in a snippet. Bypasses nothing: run records have no history.
    """
    redacted = redacted_texts(texts)
    if not redacted.quotes and not redacted.shingles:
        return 0
    store = memory.store
    records = RunRecord.objects.all()
    if store.kind == StoreKind.PROJECT:
        records = records.filter(project_id=store.project_id)
    elif store.kind == StoreKind.AGENT:
        records = records.filter(run__agent_id=store.agent_id)
    changed = 0
    for record in records.only("pk", "transcript", "events").iterator(chunk_size=200):
        transcript = redacted.replace(record.transcript)
        events = redacted.replace(record.events) if record.events is not None else None
        if transcript != record.transcript or events != record.events:
            # The index follows the row (migration 0003); FTS5 is merged so the old terms go now.
            RunRecord.objects.filter(pk=record.pk).update(transcript=transcript, events=events)
            changed += 1
    if changed:
        record_index_settle()
    logger.info("scrubbed quotes of redacted memory %s from %d run records", memory.public_id, changed)
    return changed


# A project's standing decisions and governance template.


def _project(key: str) -> JiraProject:
    project = JiraProject.objects.filter(key__iexact=(key or "").strip()).first()
    if project is None:
        raise NotFound(f"No Jira project {key!r} in the console.")
    return project


def standing_decision_add(*, project_key: str, title: str, text: str, user=None) -> StandingDecision:
    """Add a person's ruling to a project. It binds the agents; memory never overrides it."""
    project = _project(project_key)
    if not isinstance(title, str) or not title.strip():
        raise InvalidRequest("A standing decision needs a title.")
    if not isinstance(text, str) or not text.strip():
        raise InvalidRequest("A standing decision needs its text.")
    return StandingDecision.objects.create(
        project=project, title=title.strip()[:255], text=text.strip(), created_by=user
    )


def governance_template_set(*, project_key: str, text: str) -> JiraProject:
    """Set the project's governance template (an empty text clears it).

    A malformed promotion block in its front matter is refused, naming the line (``promotion_rule``).
    """
    project = _project(project_key)
    if not isinstance(text, str):
        raise InvalidRequest("The governance template must be text.")
    promotion_rule(text.strip())
    project.governance_template = text.strip()
    project.save(update_fields=["governance_template"])
    return project
