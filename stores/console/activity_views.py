"""See what happened: the activity of every store a person may see (/console/activity/), of one
store (/console/stores/<store_id>/activity/), and a run's page (/console/runs/<run_id>/).

Permissions are the store pages': console admins see everything; escalation contacts see their
projects' stores and the runs on their projects. Anything else answers 404, like a page that does
not exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from runs.instructions import instructions_for
from runs.models import Run
from runs.selectors import run_public_ids
from stores.models import Store
from stores.selectors import stores_for_person
from stores.services.activity import ActivityFilters, Event, activity, run_activity

from .markdown import render_markdown
from .writers import WriterLabel, jira_ticket_url, runs_by_id, writer_label

PER_PAGE = 100


class ActivityForm(forms.Form):
    """The activity filters; every field optional."""

    writer = forms.CharField(required=False, max_length=150, help_text="A name: an agent or a person.")
    run = forms.CharField(required=False, max_length=40, help_text="A run id, run_…")
    ticket = forms.CharField(required=False, max_length=64, help_text="A Jira ticket key, such as DEMO-1.")
    after = forms.DateField(required=False, label="On or after", widget=forms.DateInput(attrs={"type": "date"}))
    before = forms.DateField(required=False, label="On or before", widget=forms.DateInput(attrs={"type": "date"}))
    page = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)


@dataclass(frozen=True)
class EventRow:
    event: Event
    store: Store
    writer: WriterLabel


def _rows(events: list[Event], stores: dict[int, Store]) -> list[EventRow]:
    runs = runs_by_id(e.actor for e in events)
    return [EventRow(event=e, store=stores[e.store_id], writer=writer_label(e.actor, runs))
            for e in events if e.store_id in stores]


def _activity_page(request: HttpRequest, stores: dict[int, Store], store: Store | None) -> HttpResponse:
    form = ActivityForm(request.GET or None)
    context: dict[str, Any] = {"form": form, "store": store}
    if form.is_bound and not form.is_valid():
        context.update(rows=[], page=None)
        return render(request, "console/activity.html", context, status=400)
    data = form.cleaned_data if form.is_bound else {}
    filters = ActivityFilters(
        store_ids=list(stores),
        writer=data.get("writer") or "",
        run_ids=run_public_ids(run_id=data.get("run") or "", ticket=data.get("ticket") or ""),
        after=data.get("after"),
        before=data.get("before"),
    )
    number = data.get("page") or 1
    page = activity(filters, page=number, per_page=PER_PAGE)
    query = request.GET.copy()
    query.pop("page", None)
    context.update(
        rows=_rows(page.events, stores),
        page=page,
        number=number,
        page_query=query.urlencode(),
        filtered=any([filters.writer, filters.run_ids is not None, filters.after, filters.before]),
    )
    return render(request, "console/activity.html", context)


@login_required
@require_GET
def activity_view(request: HttpRequest) -> HttpResponse:
    """Everything that happened in the stores this person may see, newest first."""
    stores = {s.pk: s for s in stores_for_person(request.user)}
    return _activity_page(request, stores, None)


@login_required
@require_GET
def store_activity_view(request: HttpRequest, store_id: str) -> HttpResponse:
    """What happened in one store; 404 for a store this person may not see."""
    store = stores_for_person(request.user).filter(public_id=store_id).first()
    if store is None:
        raise Http404("No such memory store.")
    return _activity_page(request, {store.pk: store}, store)


def _run_or_404(request: HttpRequest, run_id: str) -> Run:
    """The run, for an admin or a contact on its project; otherwise 404."""
    run = Run.objects.select_related("agent", "project").filter(public_id=run_id).first()
    if run is None:
        raise Http404("No such run.")
    user = request.user
    if user.is_active and user.is_superuser:
        return run
    if stores_for_person(user).filter(project_id=run.project_id).exists():
        return run
    raise Http404("No such run.")


@login_required
@require_GET
def run_detail_view(request: HttpRequest, run_id: str) -> HttpResponse:
    """A run: its ticket, stores, instructions, what it wrote and had refused, its lesson and record."""
    run = _run_or_404(request, run_id)
    visible = {s.pk: s for s in stores_for_person(request.user)}
    by_public = {s.public_id: s for s in visible.values()}
    attachments = [
        {**a, "store": by_public.get(a.get("memory_store_id", ""))} for a in (run.attachments or [])
    ]
    events, refusals = run_activity(run.public_id)
    records = list(run.records.order_by("created_at", "pk"))
    context = {
        "run": run,
        "ticket_url": jira_ticket_url(run.ticket_key),
        "attachments": attachments,
        "instructions": render_markdown(instructions_for(run)),
        "rows": _rows(events, visible),
        "refusals": [r for r in refusals if r.store_id in visible],
        "records": records,
        "writer": writer_label({"type": "session_actor", "session_id": run.public_id, "name": run.agent.name},
                               {run.public_id: run}),
    }
    return render(request, "console/run.html", context)
