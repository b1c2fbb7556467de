"""The console's pages for a person's own changes: Edit (and rename), New file, Revert to this
version, and Merge a set-aside text.

Views parse, call one service, and render. The services decide through the console's checks
with the person as the writer (door ``console``); who may do what is the checks' who-rule, never
a view's. A store the person may not see answers 404, like one that does not exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from stores.console_checks.detectors.secrets import redact as redact_secrets
from stores.console_checks.reasons import Reason
from stores.errors import Conflict, ConsoleError, NotFound, Refused
from stores.models import Memory, Store, StoreKind
from stores.paths import PROJECT_FOLDERS
from stores.services.editing import memory_edit, memory_revert
from stores.services.memories import memory_create
from stores.services.merging import set_aside_merge_proposal, set_aside_merge_save

from .diffs import text_diff
from .forms import MemoryCreateForm, MemoryEditForm, MergeForm, RevertForm
from .markdown import render_markdown
from .views import _memory_or_404, _set_aside_or_404, _store_or_404, _writer, actor_name

MAX_PASSAGES = 5


@dataclass(frozen=True)
class Passage:
    """Where a refused text trips a check: a line number (0 for the path) and that line."""

    where: str
    text: str


@dataclass(frozen=True)
class Problem:
    """A refusal or error as a page shows it: the reason code, the message and the passages."""

    code: str
    message: str
    passages: tuple[Passage, ...] = ()
    set_aside_id: str = ""  # the person's text, kept aside when it lost to another memory


def refused_passages(details: dict[str, Any], content: str, path: str = "") -> tuple[Passage, ...]:
    """The lines of the person's text (or the path) a refusal's findings point at.

    A secret in a passage is shown as its type only: the page quotes the place, never the value.
    """
    lines = content.splitlines()
    passages: list[Passage] = []
    for finding in (details.get("findings") or [])[:MAX_PASSAGES]:
        line = finding.get("line")
        if line == 0 and path:
            passages.append(Passage(where="path", text=redact_secrets(path)))
        elif isinstance(line, int) and 1 <= line <= len(lines):
            passages.append(Passage(where=f"line {line}", text=redact_secrets(lines[line - 1])))
        elif finding.get("term"):
            passages.append(Passage(where=str(finding.get("kind", "term")), text=str(finding["term"])))
    return tuple(dict.fromkeys(passages))  # one finding per line is enough


def problem_of(exc: ConsoleError, content: str = "", path: str = "") -> Problem:
    """A service's refusal or error, with the passages of ``content`` it points at."""
    code = exc.code or exc.error_type
    kept = str(exc.details.get("set_aside_id", ""))
    passages = refused_passages(exc.decision.details, content, path) if isinstance(exc, Refused) else ()
    return Problem(code=code, message=exc.message, passages=passages, set_aside_id=kept)


def _status(exc: ConsoleError) -> int:
    return exc.status if 400 <= exc.status < 500 else 400


# --- Edit and New file -------------------------------------------------------------------------


def _render_edit(
    request: HttpRequest, store: Store, memory: Memory, form: MemoryEditForm, *, status: int = 200, **extra: Any
) -> HttpResponse:
    context = {"store": store, "memory": memory, "form": form, **extra}
    return render(request, "console/memory_edit.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def memory_edit_view(request: HttpRequest, store_id: str, memory_id: str) -> HttpResponse:
    """Edit: the Markdown text with a preview, the path (rename or move), a reason; Save.

    The form carries the version it was opened on. If another writer saved since, the saved copy
    stays, the person's text is kept aside, and the page shows both texts with Merge.
    """
    store = _store_or_404(request, store_id)
    if request.method == "GET":
        memory = _memory_or_404(store, memory_id, deleted_at__isnull=True)
        initial = {"path": memory.path, "content": memory.content, "opened_version": memory.head_version_id}
        return _render_edit(request, store, memory, MemoryEditForm(initial=initial), preview=render_markdown(memory.content))
    # A memory deleted while the person edited it still answers, so their text is not thrown away.
    memory = _memory_or_404(store, memory_id, redacted_at__isnull=True)
    form = MemoryEditForm(request.POST)
    if not form.is_valid():
        return _render_edit(request, store, memory, form, status=400)
    data = form.cleaned_data
    if "preview" in request.POST:
        return _render_edit(request, store, memory, form, preview=render_markdown(data["content"]))
    try:
        result = memory_edit(
            writer=_writer(request),
            store=store,
            memory_id=memory.public_id,
            opened_version_id=data["opened_version"],
            content=data["content"],
            path=data["path"],
            reason=data["reason"],
        )
    except NotFound:
        who = actor_name(memory.deleted_by) if memory.deleted_by else "someone"
        problem = Problem(
            code=Reason.MEMORY_DELETED,
            message=f"{memory.path} was deleted by {who} while you were editing it. Restore it from Recently "
            "deleted first if it should stay; your text is below, not saved.",
        )
        return _render_edit(request, store, memory, form, status=409, problem=problem)
    except ConsoleError as exc:
        problem = problem_of(exc, data["content"], data["path"])
        return _render_edit(request, store, memory, form, status=_status(exc), problem=problem)
    if result.lost:
        saved = result.memory
        context = {
            "conflict": True,
            "saved": saved,
            "yours": data["content"],
            "set_aside": result.set_aside,
            "diff": text_diff(saved.content, data["content"], old_label="saved copy", new_label="your text"),
        }
        return _render_edit(request, store, saved, form, status=409, **context)
    if result.changed:
        messages.success(request, f"Saved {result.memory.path} as a new version.")
        if redact_secrets(memory.content) != memory.content and redact_secrets(data["content"]) == data["content"]:
            # The edit took a secret out of the live text only; every older version still holds it.
            messages.warning(
                request,
                "The old text, secret included, stays in this file's versions. To remove it for good, Delete "
                "the file, then choose Redact all versions under Recently deleted.",
            )
    else:
        messages.info(request, "Nothing to save: the text and the path are as they were.")
    return redirect("console:memory", store_id=store.public_id, memory_id=memory.public_id)


@login_required
@require_http_methods(["GET", "POST"])
def memory_new_view(request: HttpRequest, store_id: str) -> HttpResponse:
    """New file: path, Markdown text (with a preview) and a reason; Save creates it through the checks."""
    store = _store_or_404(request, store_id)
    folders = [f"/{name}/" for name in PROJECT_FOLDERS] if store.kind == StoreKind.PROJECT else []
    context: dict[str, Any] = {"store": store, "folders": folders}
    if request.method == "GET":
        folder = request.GET.get("folder", "")
        initial = {"path": folder if folder.startswith("/") and folder.endswith("/") else ""}
        return render(request, "console/memory_new.html", {**context, "form": MemoryCreateForm(initial=initial)})
    form = MemoryCreateForm(request.POST)
    context["form"] = form
    if not form.is_valid():
        return render(request, "console/memory_new.html", context, status=400)
    data = form.cleaned_data
    if "preview" in request.POST:
        return render(request, "console/memory_new.html", {**context, "preview": render_markdown(data["content"])})
    try:
        memory = memory_create(
            writer=_writer(request), store=store, path=data["path"], content=data["content"], reason=data["reason"]
        )
    except ConsoleError as exc:
        context["problem"] = problem_of(exc, data["content"], data["path"])
        context["conflicting_memory_id"] = exc.extra.get("conflicting_memory_id", "")
        return render(request, "console/memory_new.html", context, status=_status(exc))
    messages.success(request, f"Created {memory.path}.")
    return redirect("console:memory", store_id=store.public_id, memory_id=memory.public_id)


# --- Revert to this version --------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def memory_revert_view(request: HttpRequest, store_id: str, memory_id: str, version_id: str) -> HttpResponse:
    """Revert to this version: a confirmation (path, the version, its difference from the current
    text, a reason), then, on a POST that confirms, its text comes back as a new version, through the checks."""
    store = _store_or_404(request, store_id)
    memory = _memory_or_404(store, memory_id)
    form = RevertForm(request.POST if request.method == "POST" else None)
    version = memory.history.filter(version_id=version_id).first()
    if version is None:
        raise Http404("No such version.")
    if request.method == "GET" or "confirm" not in request.POST or not form.is_valid():
        # A one-click POST (an old page, a script) is shown the confirmation too, never applied.
        old_text = "" if version.version_redacted_at else version.content
        context = {
            "store": store, "memory": memory, "version": version, "form": form,
            "diff": text_diff(memory.content, old_text, old_label="current text", new_label=f"version {version_id}"),
        }
        status = 400 if request.method == "POST" and form.is_bound and not form.is_valid() else 200
        return render(request, "console/memory_revert_confirm.html", context, status=status)
    reason = form.cleaned_data["reason"]
    try:
        saved, changed = memory_revert(
            writer=_writer(request), store=store, memory_id=memory.public_id, version_id=version_id, reason=reason
        )
    except NotFound as exc:
        raise Http404(exc.message) from exc
    except ConsoleError as exc:
        text = "" if version.version_redacted_at else version.content
        context = {"store": store, "memory": memory, "version": version, "problem": problem_of(exc, text)}
        return render(request, "console/memory_revert_refused.html", context, status=_status(exc))
    if changed:
        messages.success(
            request, f"Reverted {saved.path} to version {version_id}: its text is the new version {saved.head_version_id}."
        )
    else:
        messages.info(request, f"{saved.path} already holds the text of version {version_id}; nothing changed.")
    return redirect("console:memory", store_id=store.public_id, memory_id=memory.public_id)


# --- Merge a set-aside text --------------------------------------------------------------------


def _merge_context(proposal, form: MergeForm, **extra: Any) -> dict[str, Any]:
    set_aside = proposal.set_aside
    return {
        "store": set_aside.store,
        "set_aside": set_aside,
        "memory": proposal.memory,
        "proposal": proposal,
        "result": proposal.result,
        "created_by": actor_name(set_aside.created_by),
        "form": form,
        **extra,
    }


@login_required
@require_http_methods(["GET", "POST"])
def set_aside_merge_view(request: HttpRequest, set_aside_id: str) -> HttpResponse:
    """Merge: the set-aside text merged onto the saved copy (three-way, on the version it was based
    on), as an editable proposal, or with each conflict's two sides marked; Save merged text."""
    set_aside = _set_aside_or_404(request, set_aside_id)
    store = set_aside.store
    try:
        proposal = set_aside_merge_proposal(store=store, set_aside_id=set_aside.public_id)
    except ConsoleError as exc:
        messages.error(request, exc.message)
        return redirect("console:set_aside", set_aside_id=set_aside.public_id)
    if request.method == "GET":
        form = MergeForm(initial={"content": proposal.result.text, "saved_sha256": proposal.saved_sha256})
        return render(request, "console/set_aside_merge.html", _merge_context(proposal, form))
    form = MergeForm(request.POST)
    if not form.is_valid():
        return render(request, "console/set_aside_merge.html", _merge_context(proposal, form), status=400)
    data = form.cleaned_data
    try:
        set_aside_merge_save(
            writer=_writer(request),
            store=store,
            set_aside_id=set_aside.public_id,
            text=data["content"],
            saved_sha256=data["saved_sha256"],
            reason=data["reason"],
        )
    except Conflict as exc:
        if exc.code != Reason.SAVED_COPY_CHANGED:
            messages.error(request, exc.message)
            return redirect("console:set_aside", set_aside_id=set_aside.public_id)
        # Merged onto a copy that is no longer the saved one: offer the merge onto the new one,
        # and keep what the person had written in view.
        fresh = MergeForm(initial={"content": proposal.result.text, "saved_sha256": proposal.saved_sha256})
        context = _merge_context(proposal, fresh, problem=problem_of(exc), previous_text=data["content"])
        return render(request, "console/set_aside_merge.html", context, status=409)
    except ConsoleError as exc:
        context = _merge_context(proposal, form, problem=problem_of(exc, data["content"]))
        return render(request, "console/set_aside_merge.html", context, status=_status(exc))
    messages.success(request, f"Saved the merged text: {proposal.memory.path} has a new version; the set-aside text is used.")
    return redirect("console:memory", store_id=store.public_id, memory_id=proposal.memory.public_id)
