"""Find any note: full-text search across every store the person may see (GET /console/search/).

The view reads the form, narrows the stores to the ones this person may see, and calls the one
search service (stores.services.search). A store named in the filter that the person may not
see answers the same form error (400) as a store that does not exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET

from runs.models import Run
from stores.models import Memory, SearchEntry, Store
from stores.selectors import stores_for_person
from stores.services.search import SearchResults, search

from .writers import WriterLabel, run_writer_label


class SearchForm(forms.Form):
    """The search box and its filters; every field is optional and any text is accepted."""

    q = forms.CharField(required=False, max_length=500, label="Words to find",
                        help_text='Words, "a phrase", OR between words, -word to leave one out.')
    store = forms.CharField(required=False, max_length=40)
    folder = forms.CharField(required=False, max_length=1024,
                             help_text="A folder such as /solutions/, to look only there.")
    writer = forms.CharField(required=False, max_length=150, help_text="Who changed it last (a name).")
    after = forms.DateField(required=False, label="Changed on or after",
                            widget=forms.DateInput(attrs={"type": "date"}))
    before = forms.DateField(required=False, label="Changed on or before",
                             widget=forms.DateInput(attrs={"type": "date"}))


@dataclass(frozen=True)
class SearchRow:
    store: Store
    memory: Memory
    snippet: SafeString
    changed_at: datetime
    writer: WriterLabel


def _rows(results: SearchResults, stores: dict[int, Store]) -> list[SearchRow]:
    entries: list[SearchEntry] = [hit.entry for hit in results.hits]
    memories = Memory.objects.in_bulk([e.source_id for e in entries])
    runs = {r.public_id: r for r in Run.objects.filter(public_id__in={e.run_public_id for e in entries} - {""})}
    rows = []
    for hit in results.hits:
        entry = hit.entry
        memory = memories.get(entry.source_id)
        store = stores.get(entry.store_id)
        if memory is None or store is None:
            continue
        rows.append(
            SearchRow(
                store=store,
                memory=memory,
                snippet=hit.snippet,
                changed_at=entry.changed_at,
                writer=run_writer_label(entry.writer_name, runs.get(entry.run_public_id)),
            )
        )
    return rows


@login_required
@require_GET
def search_view(request: HttpRequest) -> HttpResponse:
    """Search every store this person may see; deleted memories are listed apart."""
    visible = {s.pk: s for s in stores_for_person(request.user).order_by("kind", "name")}
    form = SearchForm(request.GET or None)
    context: dict[str, Any] = {"form": form, "stores": list(visible.values()), "searched": False}
    if not form.is_bound:
        return render(request, "console/search.html", context)
    if not form.is_valid():
        return render(request, "console/search.html", context, status=400)
    data = form.cleaned_data
    store_ids = list(visible)
    chosen = None
    if data["store"]:
        chosen = next((s for s in visible.values() if s.public_id == data["store"]), None)
        if chosen is None:
            # Unseen and unknown read alike: which stores exist outside the person's scope stays unsaid.
            form.add_error("store", f"No store {data['store']} among the stores you may see: pick one from "
                                    "the list, or search every store.")
            return render(request, "console/search.html", context, status=400)
        store_ids = [chosen.pk]
    filters = {
        "folder": data["folder"].strip(),
        "writer": data["writer"].strip(),
        "after": data["after"],
        "before": data["before"],
    }
    results = search(data["q"], store_ids=store_ids, **filters)
    deleted_rows: list[SearchRow] = []
    if results.ran:
        # Everyone who may see a store may restore in it (admins everywhere, contacts in their
        # projects' stores: the who-check's person rules), so the deleted files searched are those
        # still in the restore window in the same stores.
        cutoff = timezone.now() - timedelta(days=settings.RECENTLY_DELETED_DAYS)
        deleted = search(data["q"], store_ids=store_ids, deleted=True, deleted_since=cutoff, **filters)
        deleted_rows = _rows(deleted, visible)
    context.update(
        searched=True,
        query=data["q"],
        chosen=chosen,
        results=results,
        rows=_rows(results, visible),
        deleted_rows=deleted_rows,
        recently_deleted_days=settings.RECENTLY_DELETED_DAYS,
    )
    # A query that cannot be read is the asker's to fix, as on the run-record search.
    return render(request, "console/search.html", context, status=400 if results.problem else 200)
