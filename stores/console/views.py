"""The console's pages for people: the Memory page, a store, a file and its versions, Delete,
Recently deleted, Restore, Redact all versions, and set-aside texts.

Views parse, call one selector or service, and render. The services decide (through the
console's checks) with the person as the writer; a store the person may not see answers 404 on
every page, exactly like a store that does not exist.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, LogoutView
from django.core.paginator import Paginator
from django.db.models import Case, Count, IntegerField, QuerySet, Value, When
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from stores.console_checks.request import Writer
from stores.errors import ConsoleError, NotFound
from stores.models import Memory, SetAside, SetAsideStatus, Store, StoreKind
from stores.restore_window import (
    deleted_before_window,
    is_restorable,
    recently_deleted,
    restorable_until,
    restore_cutoff,
)
from stores.selectors import live_memories, promotions_of_memory, stores_for_person
from stores.services.memories import memory_delete, memory_restore
from stores.services.promotions import may_propose, promotion_targets
from stores.services.redaction import memory_redact_all_versions
from stores.services.set_asides import set_aside_dismiss, set_aside_use

from .diffs import text_diff
from .forms import DeleteForm, PathFilterForm, RedactForm
from .markdown import render_markdown
from .writers import WriterLabel, runs_by_id, writer_label

FILES_PER_PAGE = 200
DELETED_PER_PAGE = 100
FIRST_LINES = 8
KIND_ORDER = [StoreKind.PROJECT, StoreKind.AGENT, StoreKind.TOOLSET, StoreKind.PRACTICE, StoreKind.SHARED]
KIND_HEADINGS = {
    StoreKind.PROJECT: "Project stores",
    StoreKind.AGENT: "Agent stores",
    StoreKind.TOOLSET: "Toolset stores",
    StoreKind.PRACTICE: "Practice store",
    StoreKind.SHARED: "Shared stores",
}


# --- helpers ---------------------------------------------------------------------------------


def _writer(request: HttpRequest) -> Writer:
    return Writer(user=request.user, door="console")


def _store_or_404(request: HttpRequest, store_id: str) -> Store:
    """The store, if this person may see it; otherwise 404, the same as a store that does not exist."""
    store = stores_for_person(request.user).filter(public_id=store_id).first()
    if store is None:
        raise Http404("No such memory store.")
    return store


def actor_name(actor: dict[str, Any] | None, runs: Mapping[str, Any] | None = None) -> WriterLabel:
    """A person-readable writer for an actor object (section 0 of the API reference): the one
    helper every page uses, linked to the run and the ticket when a run wrote it."""
    return writer_label(actor, runs)


def _first_lines(text: str) -> list[str]:
    return text.splitlines()[:FIRST_LINES]


def _counts_by_store(qs: QuerySet) -> dict[int, int]:
    return dict(qs.values("store_id").annotate(n=Count("id")).values_list("store_id", "n"))


def _error_status(exc: ConsoleError) -> int:
    return exc.status if 400 <= exc.status < 500 else 400


# --- signing in --------------------------------------------------------------------------------


class ConsoleLoginView(LoginView):
    """Django's login view with the console's page and a plain lockout message.

    Django's AuthenticationForm calls ``authenticate(request, ...)``, which django-axes needs to
    count failures by username and address. When axes refuses a locked-out sign-in, this view
    answers with the login page saying so (status 429) and clears axes' flag so its middleware
    does not swap the page for its bare default.
    """

    template_name = "console/login.html"
    redirect_authenticated_user = True

    def form_invalid(self, form):
        if getattr(self.request, "axes_locked_out", False):
            self.request.axes_locked_out = False
            context = self.get_context_data(form=form, locked_out=True, cooloff_minutes=cooloff_minutes())
            return self.render_to_response(context, status=429)
        return super().form_invalid(form)


def cooloff_minutes() -> int:
    """Minutes a locked-out sign-in waits (AXES_COOLOFF_TIME is in hours)."""
    return int(round(float(getattr(settings, "AXES_COOLOFF_TIME", 0.25) or 0) * 60))


def locked_out_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict | None = None
) -> HttpResponse:
    """django-axes' answer to a locked-out sign-in outside the console's own form (the admin's):
    a page saying why and for how long, status 429, instead of a bare line of text."""
    username = credentials.get("username", "") if isinstance(credentials, dict) else ""
    context = {"username": username, "cooloff_minutes": cooloff_minutes()}
    return render(request, "console/locked_out.html", context, status=429)


class ConsoleLogoutView(LogoutView):
    """Django's logout (a POST). A GET, such as the address typed in, still changes nothing and
    answers 405, but with a page holding the Log out button rather than an empty body."""

    def http_method_not_allowed(self, request, *args, **kwargs):
        response = render(request, "console/logout.html", status=405)
        response["Allow"] = ", ".join(m.upper() for m in self._allowed_methods())
        return response


# --- the Memory page and a store -------------------------------------------------------------


@login_required
@require_GET
def memory_home(request: HttpRequest) -> HttpResponse:
    """The Memory page: every store this person may see, with its counts."""
    kind_rank = Case(
        *[When(kind=kind, then=Value(rank)) for rank, kind in enumerate(KIND_ORDER)],
        default=Value(len(KIND_ORDER)),
        output_field=IntegerField(),
    )
    stores = list(stores_for_person(request.user).annotate(kind_rank=kind_rank).order_by("kind_rank", "name"))
    ids = [s.pk for s in stores]
    live = _counts_by_store(Memory.objects.filter(store_id__in=ids, deleted_at__isnull=True))
    deleted = _counts_by_store(
        Memory.objects.filter(store_id__in=ids, deleted_at__gte=restore_cutoff(), redacted_at__isnull=True)
    )
    waiting = _counts_by_store(SetAside.objects.filter(store_id__in=ids, status=SetAsideStatus.OPEN))
    groups: list[dict[str, Any]] = []
    for store in stores:
        row = {
            "store": store,
            "memories": live.get(store.pk, 0),
            "deleted": deleted.get(store.pk, 0),
            "set_asides": waiting.get(store.pk, 0),
        }
        if not groups or groups[-1]["kind"] != store.kind:
            groups.append({"kind": store.kind, "heading": KIND_HEADINGS.get(store.kind, store.kind), "rows": []})
        groups[-1]["rows"].append(row)
    return render(request, "console/memory.html", {"groups": groups, "store_count": len(stores)})


@dataclass(frozen=True)
class FileRow:
    memory: Memory
    name: str
    changed_at: datetime
    changed_by: WriterLabel


@login_required
@require_GET
def store_detail(request: HttpRequest, store_id: str) -> HttpResponse:
    """A store: its files by folder, with first line and last change; set-aside texts waiting."""
    store = _store_or_404(request, store_id)
    form = PathFilterForm(request.GET or None)
    memories = live_memories(store).order_by("path")
    path_filter = ""
    if form.is_valid():
        path_filter = form.cleaned_data["path"].strip()
    if path_filter:
        if path_filter.startswith("/"):
            memories = memories.filter(path__startswith=path_filter)
        else:
            memories = memories.filter(path__icontains=path_filter)
    page = Paginator(memories, FILES_PER_PAGE).get_page(request.GET.get("page"))
    rows = list(page.object_list)
    heads = {
        v.version_id: v
        for v in Memory.history.filter(store_id=store.pk, version_id__in=[m.head_version_id for m in rows]).only(
            "version_id", "actor", "history_date"
        )
    }
    runs = runs_by_id(h.actor for h in heads.values())
    folders: dict[str, list[FileRow]] = {}
    for memory in rows:
        folder, _, name = memory.path.rpartition("/")
        head = heads.get(memory.head_version_id)
        folders.setdefault(folder + "/", []).append(
            FileRow(
                memory=memory,
                name=name,
                changed_at=head.history_date if head else memory.updated_at,
                changed_by=actor_name(head.actor, runs) if head else actor_name(None),
            )
        )
    set_asides = list(
        SetAside.objects.filter(store=store, status=SetAsideStatus.OPEN).select_related("memory").order_by("created_at")
    )
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "store": store,
        "form": form,
        "path_filter": path_filter,
        "folders": sorted(folders.items()),
        "page": page,
        "page_query": query.urlencode(),
        "set_asides": set_asides,
        "deleted_count": recently_deleted(store).count(),
        "recently_deleted_days": settings.RECENTLY_DELETED_DAYS,
    }
    return render(request, "console/store.html", context)


# --- a file, its versions and their differences ------------------------------------------------


def _memory_or_404(store: Store, memory_id: str, **filters: Any) -> Memory:
    memory = Memory.objects.filter(store=store, public_id=memory_id, **filters).first()
    if memory is None:
        raise Http404("No such memory.")
    return memory


@dataclass(frozen=True)
class VersionRow:
    version: Any
    who: WriterLabel
    why: str
    redacted: bool


def _version_rows(memory: Memory) -> list[VersionRow]:
    versions = list(memory.history.order_by("-history_id"))
    runs = runs_by_id(v.actor for v in versions)
    return [
        VersionRow(
            version=v,
            who=actor_name(v.actor, runs),
            why=v.history_change_reason or "",
            redacted=v.version_redacted_at is not None,
        )
        for v in versions
    ]


@login_required
@require_GET
def memory_detail(request: HttpRequest, store_id: str, memory_id: str) -> HttpResponse:
    """A file: its content as safe Markdown, and its versions with who, when, operation and why."""
    store = _store_or_404(request, store_id)
    memory = _memory_or_404(store, memory_id)
    show_text = memory.redacted_at is None
    context = {
        "store": store,
        "memory": memory,
        "rendered": render_markdown(memory.content) if show_text else "",
        "show_text": show_text,
        "versions": _version_rows(memory),
        "deleted_by": actor_name(memory.deleted_by) if memory.deleted_by else "",
        "redacted_by": actor_name(memory.redacted_by) if memory.redacted_by else "",
        "set_asides": memory.set_asides.filter(status=SetAsideStatus.OPEN).order_by("created_at"),
        "restorable": is_restorable(memory),
        # Past the restore window its versions stay until redacted, so Redact all versions stays offered.
        "redactable_only": memory.is_deleted and memory.redacted_at is None and not is_restorable(memory),
        "recently_deleted_days": settings.RECENTLY_DELETED_DAYS,
        # A project note may be proposed for the practice store or a toolset store; either end links the other.
        "may_promote": show_text and not memory.is_deleted and bool(promotion_targets(store))
        and may_propose(request.user, store),
        "promotions": list(promotions_of_memory(memory)),
    }
    return render(request, "console/memory_detail.html", context)


@login_required
@require_GET
def version_detail(request: HttpRequest, store_id: str, memory_id: str, version_id: str) -> HttpResponse:
    """One version, and the difference between it and the version before it."""
    store = _store_or_404(request, store_id)
    memory = _memory_or_404(store, memory_id)
    version = memory.history.filter(version_id=version_id).first()
    if version is None:
        raise Http404("No such version.")
    previous = memory.history.filter(history_id__lt=version.history_id).order_by("-history_id").first()
    redacted = version.version_redacted_at is not None
    previous_redacted = previous is not None and previous.version_redacted_at is not None
    diff: list = []
    path_change: tuple[str, str] | None = None
    if not redacted and not previous_redacted:
        if previous is None:
            diff = text_diff("", version.content, old_label="(nothing)", new_label=version.version_id)
        else:
            delta = version.diff_against(previous, included_fields=["content", "path"])
            for change in delta.changes:
                if change.field == "content":
                    diff = text_diff(
                        change.old or "", change.new or "", old_label=previous.version_id, new_label=version.version_id
                    )
                elif change.field == "path":
                    path_change = (change.old, change.new)
    context = {
        "store": store,
        "memory": memory,
        "version": version,
        "who": actor_name(version.actor),
        "why": version.history_change_reason or "",
        "previous": previous,
        "redacted": redacted,
        "previous_redacted": previous_redacted,
        "redacted_by": actor_name(version.version_redacted_by) if version.version_redacted_by else "",
        "diff": diff,
        "path_change": path_change,
    }
    return render(request, "console/version.html", context)


# --- Delete, Recently deleted, Restore, Redact all versions ----------------------------------


def _perform(request: HttpRequest, action, **kwargs: Any) -> tuple[Any, ConsoleError | None]:
    """Call a memory service as this person: an unknown memory is a 404, a refusal a message.

    Returns the service's result and no error, or no result and the refusal (already shown).
    """
    try:
        return action(writer=_writer(request), **kwargs), None
    except NotFound as exc:
        raise Http404(exc.message) from exc
    except ConsoleError as exc:
        messages.error(request, exc.message)
        return None, exc


@login_required
@require_http_methods(["GET", "POST"])
def memory_delete_view(request: HttpRequest, store_id: str, memory_id: str) -> HttpResponse:
    """The Delete confirmation (path and first lines, optional reason); POST deletes at once."""
    store = _store_or_404(request, store_id)
    memory = _memory_or_404(store, memory_id, deleted_at__isnull=True)
    form = DeleteForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST" and form.is_valid():
        _done, error = _perform(
            request, memory_delete, store=store, memory_id=memory.public_id, reason=form.cleaned_data["reason"]
        )
        if error is not None:
            status = _error_status(error)
        else:
            messages.success(
                request,
                format_html(
                    'Deleted {}. It has left the store; you can restore it from <a href="{}">Recently deleted</a> '
                    "for {} days.",
                    memory.path,
                    reverse("console:deleted", kwargs={"store_id": store.public_id}),
                    settings.RECENTLY_DELETED_DAYS,
                ),
            )
            return redirect("console:store", store_id=store.public_id)
    elif request.method == "POST":
        status = 400
    context = {
        "store": store,
        "memory": memory,
        "form": form,
        "first_lines": _first_lines(memory.content),
        "recently_deleted_days": settings.RECENTLY_DELETED_DAYS,
        "waiting_set_asides": list(memory.set_asides.filter(status=SetAsideStatus.OPEN).order_by("created_at")),
    }
    return render(request, "console/delete.html", context, status=status)


@dataclass(frozen=True)
class DeletedRow:
    memory: Memory
    deleted_by: WriterLabel
    redacted_by: WriterLabel | str
    restorable_until: datetime | None


@login_required
@require_GET
def deleted_list(request: HttpRequest, store_id: str) -> HttpResponse:
    """Recently deleted: memories deleted in the last RECENTLY_DELETED_DAYS days, newest first.

    With ``?older=1``: the memories deleted before that and not yet redacted. They can no longer
    be restored, but their versions stay until someone chooses Redact all versions.
    """
    store = _store_or_404(request, store_id)
    older = request.GET.get("older") == "1"
    older_qs = deleted_before_window(store)
    qs = (older_qs if older else recently_deleted(store)).order_by("-deleted_at", "-pk")
    page = Paginator(qs, DELETED_PER_PAGE).get_page(request.GET.get("page"))
    deleted = list(page.object_list)
    runs = runs_by_id(m.deleted_by for m in deleted)
    rows = [
        DeletedRow(
            memory=m,
            deleted_by=actor_name(m.deleted_by, runs),
            redacted_by=actor_name(m.redacted_by) if m.redacted_by else "",
            restorable_until=restorable_until(m),
        )
        for m in deleted
    ]
    context = {
        "store": store,
        "rows": rows,
        "page": page,
        "recently_deleted_days": settings.RECENTLY_DELETED_DAYS,
        "older": older,
        "older_count": 0 if older else older_qs.count(),
    }
    return render(request, "console/deleted.html", context)


@login_required
@require_POST
def memory_restore_view(request: HttpRequest, store_id: str, memory_id: str) -> HttpResponse:
    """Restore: bring a deleted memory back, with its id, as a new version; refusals change nothing."""
    store = _store_or_404(request, store_id)
    memory, error = _perform(request, memory_restore, store=store, memory_id=memory_id)
    if error is not None:
        return redirect("console:deleted", store_id=store.public_id)
    messages.success(request, f"Restored {memory.path}, with its id, as a new version.")
    return redirect("console:memory", store_id=store.public_id, memory_id=memory.public_id)


@login_required
@require_http_methods(["GET", "POST"])
def memory_redact_view(request: HttpRequest, store_id: str, memory_id: str) -> HttpResponse:
    """Redact all versions of a deleted memory, after a confirmation that says it cannot be undone."""
    store = _store_or_404(request, store_id)
    memory = _memory_or_404(store, memory_id, deleted_at__isnull=False)
    form = RedactForm(request.POST if request.method == "POST" else None, initial={"confirm": "yes"}, path=memory.path)
    status = 200
    if request.method == "POST" and memory.redacted_at is not None:
        # A second submit (back button, double click): nothing more to do; say what happened before.
        messages.info(
            request,
            f"All versions of {memory.public_id} were already redacted by {actor_name(memory.redacted_by)} "
            f"on {timezone.localtime(memory.redacted_at):%d %b %Y, %H:%M %Z}.",
        )
        return redirect("console:deleted", store_id=store.public_id)
    if request.method == "POST":
        if form.is_valid():
            _done, error = _perform(
                request, memory_redact_all_versions, store=store, memory_id=memory.public_id,
                reason=form.cleaned_data["reason"],
            )
            if error is not None:
                status = _error_status(error)
            else:
                # The message names the id only: the path is part of what was redacted.
                messages.success(
                    request,
                    f"Redacted all versions of {memory.public_id}. Its text and path are gone for good; "
                    "who redacted it and when stays on record.",
                )
                return redirect("console:deleted", store_id=store.public_id)
        else:
            status = 400
    context = {
        "store": store,
        "memory": memory,
        "form": form,
        "first_lines": _first_lines(memory.content),
        "version_count": memory.history.count(),
        "redacted_by": actor_name(memory.redacted_by) if memory.redacted_by else "",
    }
    return render(request, "console/redact.html", context, status=status)


# --- set-aside texts ---------------------------------------------------------------------------


def _set_aside_or_404(request: HttpRequest, set_aside_id: str) -> SetAside:
    """The set-aside text, if this person may see its store; otherwise 404."""
    set_aside = (
        SetAside.objects.select_related("memory", "store")
        .filter(public_id=set_aside_id, store__in=stores_for_person(request.user))
        .first()
    )
    if set_aside is None:
        raise Http404("No such set-aside text.")
    return set_aside


@login_required
@require_GET
def set_aside_detail(request: HttpRequest, set_aside_id: str) -> HttpResponse:
    """The saved copy and the text that lost, side by side, with Use and Dismiss."""
    set_aside = _set_aside_or_404(request, set_aside_id)
    memory = set_aside.memory
    context = {
        "store": set_aside.store,
        "set_aside": set_aside,
        "memory": memory,
        "created_by": actor_name(set_aside.created_by),
        "resolved_by": actor_name(set_aside.resolved_by) if set_aside.resolved_by else "",
        "diff": text_diff(memory.content, set_aside.text, old_label="saved copy", new_label="set-aside text"),
    }
    return render(request, "console/set_aside.html", context)


def _set_aside_action(request: HttpRequest, set_aside_id: str, action) -> tuple[SetAside, bool]:
    """Run a set-aside service for this person; a refusal is shown on the set-aside page."""
    set_aside = _set_aside_or_404(request, set_aside_id)
    try:
        action(writer=_writer(request), store=set_aside.store, set_aside_id=set_aside.public_id)
    except ConsoleError as exc:
        messages.error(request, exc.message)
        return set_aside, False
    return set_aside, True


def _set_aside_confirm(request: HttpRequest, set_aside_id: str, action: str) -> HttpResponse | None:
    """The confirmation page for Use or Dismiss; None once a POST confirms it.

    A POST without ``confirm`` (a one-click form of an old page) is shown the page too, never applied.
    """
    if request.method == "POST" and "confirm" in request.POST:
        return None
    set_aside = _set_aside_or_404(request, set_aside_id)
    memory = set_aside.memory
    context = {
        "store": set_aside.store,
        "set_aside": set_aside,
        "memory": memory,
        "action": action,
        "created_by": actor_name(set_aside.created_by),
        "diff": text_diff(memory.content, set_aside.text, old_label="saved copy", new_label="set-aside text"),
    }
    return render(request, "console/set_aside_confirm.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def set_aside_use_view(request: HttpRequest, set_aside_id: str) -> HttpResponse:
    """Use: after a confirmation, the set-aside text becomes a new version, through the checks, written by this person."""
    page = _set_aside_confirm(request, set_aside_id, "use")
    if page is not None:
        return page
    set_aside, done = _set_aside_action(request, set_aside_id, set_aside_use)
    if not done:
        return redirect("console:set_aside", set_aside_id=set_aside.public_id)
    messages.success(request, f"Used the set-aside text: {set_aside.path} has a new version.")
    return redirect("console:memory", store_id=set_aside.store.public_id, memory_id=set_aside.memory.public_id)


@login_required
@require_http_methods(["GET", "POST"])
def set_aside_dismiss_view(request: HttpRequest, set_aside_id: str) -> HttpResponse:
    """Dismiss, after a confirmation: the saved copy stays as it is; who dismissed the text and when is recorded."""
    page = _set_aside_confirm(request, set_aside_id, "dismiss")
    if page is not None:
        return page
    set_aside, done = _set_aside_action(request, set_aside_id, set_aside_dismiss)
    if not done:
        return redirect("console:set_aside", set_aside_id=set_aside.public_id)
    messages.success(request, f"Dismissed the set-aside text for {set_aside.path}; the saved copy stays.")
    return redirect(reverse("console:store", kwargs={"store_id": set_aside.store.public_id}))
