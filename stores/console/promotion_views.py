"""The console's promotion pages: Propose for the practice store (or a toolset store), the list of
promotions, and a promotion's page with Approve and Refuse.

Views parse, call one service or selector, and render. Who may propose, approve or refuse is the
promotion services' rule (the project's governance template), never a view's. A store or a
promotion the person may not see answers 404, like one that does not exist.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from stores.errors import ConsoleError, NotFound
from stores.models import Promotion, PromotionDecisionKind, PromotionStatus, Store
from stores.selectors import promotion_for_person, promotions_for_person, stores_for_person
from stores.services.promotions import (
    approvals_needed,
    may_decide,
    may_propose,
    promotion_approve,
    promotion_propose,
    promotion_refuse,
    promotion_rule_of,
    promotion_targets,
)

from .diffs import text_diff
from .editing import problem_of
from .forms import PromotionDecisionForm, PromotionForm
from .markdown import render_markdown
from .views import _memory_or_404, _store_or_404

PROMOTIONS_PER_PAGE = 50


def _status(exc: ConsoleError) -> int:
    return exc.status if 400 <= exc.status < 500 else 400


def _render_propose(
    request: HttpRequest, store: Store, memory, form: PromotionForm, *, status: int = 200, **extra: Any
) -> HttpResponse:
    context = {"store": store, "memory": memory, "form": form, **extra}
    return render(request, "console/promotions/propose.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def promote_view(request: HttpRequest, store_id: str, memory_id: str) -> HttpResponse:
    """Propose for the practice store: target store, path (the project path by default), text, reason."""
    store = _store_or_404(request, store_id)
    memory = _memory_or_404(store, memory_id, deleted_at__isnull=True)
    targets = promotion_targets(store)
    if not targets or not may_propose(request.user, store):
        raise Http404("Notes of this store cannot be proposed for promotion by you.")
    if request.method == "GET":
        initial = {"target_store": targets[0].public_id, "path": memory.path, "text": memory.content}
        return _render_propose(
            request,
            store,
            memory,
            PromotionForm(initial=initial, targets=targets),
            preview=render_markdown(memory.content),
        )
    form = PromotionForm(request.POST, targets=targets)
    if not form.is_valid():
        return _render_propose(request, store, memory, form, status=400)
    data = form.cleaned_data
    if "preview" in request.POST:
        return _render_propose(request, store, memory, form, preview=render_markdown(data["text"]))
    try:
        promotion = promotion_propose(
            user=request.user,
            store=store,
            memory_id=memory.public_id,
            target_store_id=data["target_store"],
            path=data["path"],
            text=data["text"],
            reason=data["reason"],
        )
    except ConsoleError as exc:
        problem = problem_of(exc, data["text"], data["path"])
        return _render_propose(
            request,
            store,
            memory,
            form,
            status=_status(exc),
            problem=problem,
            conflicting_memory_id=exc.extra.get("conflicting_memory_id", ""),
        )
    messages.success(
        request, f"Proposed {promotion.path} for {promotion.target_store.name}; it waits for approval."
    )
    return redirect("console:promotion", promotion_id=promotion.public_id)


@login_required
@require_GET
def promotion_list(request: HttpRequest) -> HttpResponse:
    """Pending promotions first, then decided ones, newest first; only those the person may see."""
    qs = promotions_for_person(request.user)
    pending = list(qs.filter(status=PromotionStatus.PENDING).order_by("-created_at", "-id"))
    decided = Paginator(
        qs.exclude(status=PromotionStatus.PENDING).order_by("-decided_at", "-id"), PROMOTIONS_PER_PAGE
    ).get_page(request.GET.get("page"))
    return render(request, "console/promotions/list.html", {"pending": pending, "decided": decided})


def _promotion_or_404(request: HttpRequest, promotion_id: str) -> Promotion:
    try:
        return promotion_for_person(request.user, promotion_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc


def _render_detail(
    request: HttpRequest,
    promotion: Promotion,
    *,
    form: PromotionDecisionForm | None = None,
    status: int = 200,
    **extra: Any,
) -> HttpResponse:
    source = promotion.source_memory
    missing, admin_missing = approvals_needed(promotion)
    visible = set(stores_for_person(request.user).values_list("pk", flat=True))
    source_text = (
        ""
        if source.redacted_at
        else source.history.filter(version_id=promotion.source_version_id)
        .values_list("content", flat=True)
        .first()
        or ""
    )
    context = {
        "promotion": promotion,
        "rule": promotion_rule_of(promotion),
        "decisions": promotion.decisions.select_related("user"),
        "approvals": promotion.decisions.filter(kind=PromotionDecisionKind.APPROVE).count(),
        "missing": missing,
        "admin_missing": admin_missing,
        "may_decide": may_decide(request.user, promotion),
        "is_proposer": request.user.pk == promotion.proposed_by_id,
        "form": form or PromotionDecisionForm(),
        "rendered": render_markdown(promotion.text),
        "diff": text_diff(source_text, promotion.text, old_label="project note", new_label="promoted text"),
        "see_target": promotion.target_store_id in visible,
        "see_source": promotion.source_store_id in visible,
        **extra,
    }
    return render(request, "console/promotions/detail.html", context, status=status)


@login_required
@require_GET
def promotion_detail(request: HttpRequest, promotion_id: str) -> HttpResponse:
    """A promotion: the rule it applies, the text and its difference from the note, the decisions."""
    return _render_detail(request, _promotion_or_404(request, promotion_id))


def _decide(request: HttpRequest, promotion_id: str, kind: str) -> HttpResponse:
    promotion = _promotion_or_404(request, promotion_id)
    form = PromotionDecisionForm(request.POST)
    if not form.is_valid():
        return _render_detail(request, promotion, form=form, status=400)
    decide = promotion_approve if kind == PromotionDecisionKind.APPROVE else promotion_refuse
    try:
        decided = decide(
            user=request.user, promotion_id=promotion.public_id, reason=form.cleaned_data["reason"]
        )
    except ConsoleError as exc:
        promotion.refresh_from_db()
        return _render_detail(
            request,
            promotion,
            form=form,
            status=_status(exc),
            problem=problem_of(exc, promotion.text, promotion.path),
        )
    if decided.status == PromotionStatus.APPROVED:
        messages.success(
            request, f"Approved: {decided.path} landed in {decided.target_store.name} as a new memory."
        )
    elif decided.status == PromotionStatus.REFUSED:
        messages.success(request, "Refused: nothing was promoted; your reason is kept with the promotion.")
    else:
        messages.success(request, "Approved; the promotion waits for the other approvals its rule needs.")
    return redirect("console:promotion", promotion_id=decided.public_id)


@login_required
@require_POST
def promotion_approve_view(request: HttpRequest, promotion_id: str) -> HttpResponse:
    """Approve, with a reason; the last approval the rule needs lands the text in the target store."""
    return _decide(request, promotion_id, PromotionDecisionKind.APPROVE)


@login_required
@require_POST
def promotion_refuse_view(request: HttpRequest, promotion_id: str) -> HttpResponse:
    """Refuse, with a reason; nothing is promoted."""
    return _decide(request, promotion_id, PromotionDecisionKind.REFUSE)
