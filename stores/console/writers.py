"""Who wrote something, as a person reads it: "ada, run on DEMO-1 from vm-1", linked to the run
page and to the Jira ticket; never a raw token id. Every console page names writers with
``writer_label``; a page listing many passes ``runs_by_id`` once so the runs are read in one query.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from runs.models import Run


class WriterLabel(str):
    """A writer's name and, for a run, the run and ticket links. It is the plain text (a ``str``)
    anywhere but a template, where it renders as HTML with the links (``__html__``)."""

    name: str
    run_id: str
    ticket: str
    host: str
    how: str

    def __new__(cls, name: str, run_id: str = "", ticket: str = "", host: str = "", how: str = "") -> WriterLabel:
        if run_id and ticket:
            text = f"{name}, run on {ticket}" + (f" from {host}" if host else "")
        elif run_id:
            text = f"{name}, in a run"
        elif how:
            text = f"{name}, {how}"  # "through the API" for a token that is not a run's
        else:
            text = name
        label = super().__new__(cls, text)
        label.name, label.run_id, label.ticket, label.host, label.how = name, run_id, ticket, host, how
        return label

    @property
    def text(self) -> str:
        return str.__str__(self)

    @property
    def run_url(self) -> str:
        return reverse("console:run", kwargs={"run_id": self.run_id}) if self.run_id else ""

    @property
    def ticket_url(self) -> str:
        return jira_ticket_url(self.ticket)

    def __html__(self) -> SafeString:
        if not self.run_id:
            return format_html("{}", self.text)
        run_link = format_html('<a href="{}">run</a>', self.run_url)
        if not self.ticket:
            return format_html("{}, in a {}", self.name, run_link)
        ticket = (
            format_html('<a href="{}" rel="noopener noreferrer">{}</a>', self.ticket_url, self.ticket)
            if self.ticket_url
            else format_html("{}", self.ticket)
        )
        host = format_html(" from {}", self.host) if self.host else ""
        return format_html("{}, {} on {}{}", self.name, run_link, ticket, host)


def jira_ticket_url(ticket: str) -> str:
    """The ticket's page in Jira, when the console knows where Jira is."""
    base = (getattr(settings, "JIRA_URL", "") or "").rstrip("/")
    return f"{base}/browse/{ticket}" if base and ticket else ""


def runs_by_id(actors: Iterable[dict[str, Any] | None]) -> dict[str, Run]:
    """The runs behind these actors, read at once, for ``writer_label``'s ``runs``."""
    ids = {a.get("session_id") for a in actors if a and a.get("type") == "session_actor" and a.get("session_id")}
    if not ids:
        return {}
    return {run.public_id: run for run in Run.objects.filter(public_id__in=ids).only("public_id", "ticket_key", "host")}


def writer_label(actor: dict[str, Any] | None, runs: Mapping[str, Run] | None = None) -> WriterLabel:
    """A person-readable writer for an actor object (section 0 of the API reference)."""
    if not actor:
        return WriterLabel(name="unknown")
    name = str(actor.get("name") or "unknown")
    kind = actor.get("type")
    if kind == "session_actor":
        run_id = str(actor.get("session_id") or "")
        run = runs.get(run_id) if runs is not None else Run.objects.filter(public_id=run_id).first()
        if run is None:
            return WriterLabel(name=name, run_id=run_id)
        return WriterLabel(name=name, run_id=run_id, ticket=run.ticket_key, host=run.host)
    if kind == "api_actor":
        return WriterLabel(name=name, how="through the API")
    return WriterLabel(name=name)


def run_writer_label(name: str, run: Run | None) -> WriterLabel:
    """The label for a writer known by name and run (a search hit, a refusal), without an actor object."""
    if run is None:
        return WriterLabel(name=name or "unknown")
    return WriterLabel(name=name or run.agent.name, run_id=run.public_id, ticket=run.ticket_key, host=run.host)
