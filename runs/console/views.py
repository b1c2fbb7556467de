"""Search past run records (GET /console/records/): the page reads its form, bounds the search to
the projects the person may see (the person-access rule), and calls the one search service
(runs.search), as the API does. Each hit links to its run's page (/console/runs/<run_id>/)."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from stores.api.pagination import cursor_time_pk, decode_cursor, encode_cursor
from stores.errors import InvalidRequest
from stores.models import JiraProject
from stores.services.search import MAX_QUERY_CHARS

from ..search import DEFAULT_LIMIT, OUTCOMES, clean_filters, record_search
from ..selectors import record_project_ids_for_person

PER_PAGE = DEFAULT_LIMIT
OUTCOME_LABELS: dict[str, str] = {
    "qa_failed": "QA failed",
    "needed_ruling": "Needed a ruling",
    "worked_past_error": "Worked past an error",
    "retried": "Retried",
}


class RecordSearchForm(forms.Form):
    """The search box and its filters; the words are required once the form is sent."""

    q = forms.CharField(required=False, max_length=MAX_QUERY_CHARS, label="Words to find",
                        help_text='Words, "a phrase", OR between words, -word to leave one out, word* for a prefix.')
    project = forms.CharField(required=False, max_length=32)
    ticket = forms.CharField(required=False, max_length=64, help_text="A Jira ticket key, such as DEMO-1.")
    agent = forms.CharField(required=False, max_length=150, help_text="A hosted agent's name.")
    after = forms.DateField(required=False, label="Kept on or after",
                            widget=forms.DateInput(attrs={"type": "date"}))
    before = forms.DateField(required=False, label="Kept on or before",
                             widget=forms.DateInput(attrs={"type": "date"}))
    outcome = forms.MultipleChoiceField(required=False, choices=[(name, OUTCOME_LABELS[name]) for name in OUTCOMES],
                                        widget=forms.CheckboxSelectMultiple, label="How the run ended (any of)")
    page = forms.CharField(required=False, max_length=2000, widget=forms.HiddenInput)


def _day_start(day) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min), timezone.get_current_timezone())


@login_required
@require_GET
def record_search_view(request: HttpRequest) -> HttpResponse:
    """Search the run records of every project this person may see, newest first."""
    project_ids = record_project_ids_for_person(request.user)
    projects = JiraProject.objects.order_by("key")
    if project_ids is not None:
        projects = projects.filter(pk__in=project_ids)
    form = RecordSearchForm(request.GET or None)
    context: dict[str, Any] = {"form": form, "projects": list(projects), "searched": False}
    if not form.is_bound:
        return render(request, "console/records/search.html", context)
    if not form.is_valid():
        return render(request, "console/records/search.html", context, status=400)
    data = form.cleaned_data
    try:
        cursor = decode_cursor(data["page"] or None)
        filters = clean_filters(
            project=data["project"], ticket=data["ticket"], agent=data["agent"],
            kept_from=_day_start(data["after"]) if data["after"] else None,
            kept_before=_day_start(data["before"] + timedelta(days=1)) if data["before"] else None,
            outcomes=data["outcome"],
        )
        results = record_search(data["q"], project_ids=project_ids, filters=filters, limit=PER_PAGE,
                                page_after=cursor_time_pk(cursor) if cursor else None)
    except InvalidRequest as exc:
        context.update(searched=True, problem=exc.message, rows=[])
        return render(request, "console/records/search.html", context, status=400)
    next_query = ""
    if results.next_key is not None:
        query = request.GET.copy()
        at, pk = results.next_key
        query["page"] = encode_cursor([at.isoformat(), pk])
        next_query = query.urlencode()
    rows = [{"hit": hit, "labels": [OUTCOME_LABELS[name] for name in hit.signals]} for hit in results.hits]
    context.update(searched=True, rows=rows, next_query=next_query, paged=bool(data["page"]))
    return render(request, "console/records/search.html", context)
