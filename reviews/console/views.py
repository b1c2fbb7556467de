"""The review pages: a store's reviews (and Review now), one review's proposals, and the person's
decisions on them (Adopt, Dismiss, Adopt all).

Views parse, call one selector or service of the reviews app, and render. Who: the people who may
edit the store (``reviews.access.may_review``); anyone else gets 404, the same answer as a store or
review that does not exist, as on every console page. Agents have no console (no sign-in).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from stores.console.diffs import DiffLine, text_diff
from stores.console_checks.request import Writer
from stores.errors import ConsoleError, NotFound
from stores.models import Memory, Store
from stores.selectors import stores_for_person

from ..access import may_review
from ..models import ProposalKind, ProposalStatus, Review, ReviewProposal, ReviewStatus
from ..selectors import proposal_of, proposals_of, review_for_person, reviews_of_store
from ..services.adopt import AdoptResult, adopt_all, adopt_proposal, dismiss_proposal
from ..services.review import request_review

REVIEWS_PER_PAGE = 50
# Proposals whose adopt deletes the memories after the first (or every one, for stale and decision).
DELETES_OTHERS = {ProposalKind.DUPLICATES, ProposalKind.REWRITE}
DELETES_ALL = {ProposalKind.STALE, ProposalKind.DECISION}


def _writer(request: HttpRequest) -> Writer:
    # The adopt services write as door ``review`` whatever door they are handed; say it here too.
    return Writer(user=request.user, door="review")


def _store_for_review_or_404(request: HttpRequest, store_id: str) -> Store:
    """The store, if this person may review it; otherwise 404, like a store that does not exist."""
    store = stores_for_person(request.user).filter(public_id=store_id).first()
    if store is None or not may_review(request.user, store):
        raise Http404("No such memory store.")
    return store


def _review_or_404(request: HttpRequest, review_id: str) -> Review:
    try:
        return review_for_person(request.user, review_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc


def _proposal_or_404(review: Review, proposal_id: str) -> ReviewProposal:
    try:
        return proposal_of(review, proposal_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc


def _review_url(review: Review, proposal: ReviewProposal | None = None) -> str:
    url = reverse("reviews:review", kwargs={"review_id": review.public_id})
    return f"{url}#{proposal.public_id}" if proposal is not None else url


# --- a store's reviews, and Review now --------------------------------------------------------


@dataclass(frozen=True)
class ReviewRow:
    review: Review
    by_kind: list[tuple[str, int]]
    by_status: list[tuple[str, int]]


def _counts(
    review_ids: list[int], field_name: str, labels: dict[str, str]
) -> dict[int, list[tuple[str, int]]]:
    """Per review, how many proposals there are of each value of ``field_name`` (in choice order)."""
    found: dict[int, Counter] = {}
    rows = (
        ReviewProposal.objects.filter(review_id__in=review_ids)
        .values("review_id", field_name)
        .annotate(n=Count("id"))
        .values_list("review_id", field_name, "n")
    )
    for review_id, value, n in rows:
        found.setdefault(review_id, Counter())[value] = n
    return {
        review_id: [(labels[value], counts[value]) for value in labels if counts.get(value)]
        for review_id, counts in found.items()
    }


@login_required
@require_http_methods(["GET", "POST"])
def store_reviews_view(request: HttpRequest, store_id: str) -> HttpResponse:
    """GET: the store's reviews, newest first, with their proposals counted by kind and by status.
    POST (Review now): start a review as this person; it runs as a Celery task; go to its page."""
    store = _store_for_review_or_404(request, store_id)
    if request.method == "POST":
        try:
            review = request_review(store=store, started_by=request.user)
        except ConsoleError as exc:
            messages.error(request, exc.message)
            return redirect("reviews:store_reviews", store_id=store.public_id)
        messages.success(
            request, f"Review {review.public_id} of {store.name} started. It changes no memory by itself."
        )
        return redirect(_review_url(review))
    page = Paginator(reviews_of_store(store), REVIEWS_PER_PAGE).get_page(request.GET.get("page"))
    reviews = list(page.object_list)
    ids = [r.pk for r in reviews]
    kinds = _counts(ids, "kind", dict(ProposalKind.choices))
    statuses = _counts(ids, "status", dict(ProposalStatus.choices))
    rows = [
        ReviewRow(review=r, by_kind=kinds.get(r.pk, []), by_status=statuses.get(r.pk, [])) for r in reviews
    ]
    context = {"store": store, "rows": rows, "page": page, "may_start": store.archived_at is None}
    return render(request, "reviews/store_reviews.html", context)


# --- one review ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MemoryRef:
    """A memory a proposal touches: its path as the review saw it, and what has become of it since."""

    memory_id: str
    path: str
    memory: Memory | None
    changed_since: bool
    role: str = ""  # what adopting does to it: "kept" (a fold's survivor) or "deleted on adopt"

    @property
    def linkable(self) -> bool:
        return self.memory is not None and self.memory.redacted_at is None


@dataclass(frozen=True)
class DiffBlock:
    """The diff of one memory: the copy the review read against what adopting would leave."""

    memory_id: str
    heading: str
    lines: list[DiffLine]
    note: str = ""


@dataclass(frozen=True)
class EvidenceRow:
    label: str
    text: str


@dataclass
class ProposalCard:
    proposal: ReviewProposal
    refs: list[MemoryRef]
    diffs: list[DiffBlock]
    summary: str
    evidence: list[EvidenceRow] = field(default_factory=list)

    @property
    def pending(self) -> bool:
        return self.proposal.status == ProposalStatus.PENDING

    @property
    def stale(self) -> bool:
        return any(ref.changed_since for ref in self.refs)


def _as_text(value: Any) -> str:
    """Evidence values as plain text: nested dicts as ``key: value``, lists one item a line."""
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')}: {_as_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "\n".join(_as_text(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


def _evidence_rows(evidence: dict[str, Any]) -> list[EvidenceRow]:
    return [
        EvidenceRow(label=key.replace("_", " "), text=_as_text(value))
        for key, value in evidence.items()
        if key != "summary" and value not in (None, "", [], {})
    ]


def _base_texts(store: Store, proposals: list[ReviewProposal]) -> dict[str, tuple[str, bool]]:
    """The text of every version the proposals were based on: {version_id: (text, redacted)}."""
    version_ids = {
        seen.get("version_id")
        for p in proposals
        for seen in (p.base.get("memories") or {}).values()
        if seen.get("version_id")
    }
    rows = Memory.history.filter(store_id=store.pk, version_id__in=version_ids).values_list(
        "version_id", "content", "version_redacted_at"
    )
    return {vid: (content or "", redacted_at is not None) for vid, content, redacted_at in rows}


def _diffs(
    proposal: ReviewProposal, refs: list[MemoryRef], bases: dict[str, tuple[str, bool]]
) -> list[DiffBlock]:
    seen_by_id = proposal.base.get("memories") or {}
    blocks = []
    for index, ref in enumerate(refs):
        version_id = (seen_by_id.get(ref.memory_id) or {}).get("version_id", "")
        base_text, redacted = bases.get(version_id, ("", True))
        deleted = proposal.kind in DELETES_ALL or (proposal.kind in DELETES_OTHERS and index > 0)
        label = f"{ref.path} as the review read it (version {version_id})"
        if redacted or (ref.memory is not None and ref.memory.redacted_at is not None):
            blocks.append(
                DiffBlock(ref.memory_id, ref.path or ref.memory_id, [], note="Its text was redacted.")
            )
            continue
        if deleted:
            heading = f"{ref.path}: deleted"
            lines = text_diff(base_text, "", old_label=label, new_label="deleted")
        elif proposal.proposed_text is not None:
            heading = f"{ref.path}: proposed text"
            lines = text_diff(base_text, proposal.proposed_text, old_label=label, new_label="proposed")
        else:
            continue
        note = (
            "" if lines else "The proposed text is the text the review read: adopting writes no new version."
        )
        blocks.append(DiffBlock(ref.memory_id, heading, lines, note=note))
    return blocks


def _cards(review: Review, proposals: list[ReviewProposal]) -> list[ProposalCard]:
    store = review.store
    wanted = {memory_id for p in proposals for memory_id in p.memory_ids}
    memories = {m.public_id: m for m in Memory.objects.filter(store=store, public_id__in=wanted)}
    bases = _base_texts(store, proposals)
    cards = []
    for proposal in proposals:
        seen_by_id = proposal.base.get("memories") or {}
        refs = []
        for index, memory_id in enumerate(proposal.memory_ids):
            memory = memories.get(memory_id)
            seen = seen_by_id.get(memory_id) or {}
            changed = (
                memory is None
                or memory.deleted_at is not None
                or memory.head_version_id != seen.get("version_id")
            )
            path = proposal.paths[index] if index < len(proposal.paths) else ""
            deleted = proposal.kind in DELETES_ALL or (proposal.kind in DELETES_OTHERS and index > 0)
            role = "deleted on adopt" if deleted else ("kept" if proposal.kind in DELETES_OTHERS else "")
            refs.append(
                MemoryRef(memory_id=memory_id, path=path, memory=memory, changed_since=changed, role=role)
            )
        evidence = proposal.evidence or {}
        cards.append(
            ProposalCard(
                proposal=proposal,
                refs=refs,
                diffs=_diffs(proposal, refs, bases),
                summary=str(evidence.get("summary", "")),
                evidence=_evidence_rows(evidence),
            )
        )
    return cards


@login_required
@require_http_methods(["GET"])
def review_detail_view(request: HttpRequest, review_id: str) -> HttpResponse:
    """A review: each proposal with its kind, evidence, the memories it touches and its diff, with
    Adopt and Dismiss while pending, and who decided, when and how once decided."""
    review = _review_or_404(request, review_id)
    cards = _cards(review, list(proposals_of(review)))
    pending = sum(1 for c in cards if c.pending)
    context = {
        "store": review.store,
        "review": review,
        "cards": cards,
        "pending_count": pending,
        "in_progress": review.status in (ReviewStatus.QUEUED, ReviewStatus.RUNNING),
    }
    return render(request, "reviews/review.html", context)


# --- decisions ------------------------------------------------------------------------------------


def _say(request: HttpRequest, result: AdoptResult) -> None:
    proposal = result.proposal
    if result.adopted:
        written = len(result.version_ids)
        messages.success(
            request,
            f"Adopted {proposal.public_id} ({proposal.get_kind_display().lower()}): "
            f"{written} version{'s' if written != 1 else ''} written under your name.",
        )
    else:
        messages.error(
            request, f"Not adopted: {proposal.public_id} was refused ({result.code}). {result.message}"
        )


@login_required
@require_POST
def adopt_view(request: HttpRequest, review_id: str, proposal_id: str) -> HttpResponse:
    """Adopt one proposal through the checks as door ``review``; a refusal changes nothing and is shown."""
    review = _review_or_404(request, review_id)
    proposal = _proposal_or_404(review, proposal_id)
    try:
        result = adopt_proposal(writer=_writer(request), proposal=proposal)
    except ConsoleError as exc:
        messages.error(request, exc.message)
    else:
        _say(request, result)
    return redirect(_review_url(review, proposal))


@login_required
@require_POST
def dismiss_view(request: HttpRequest, review_id: str, proposal_id: str) -> HttpResponse:
    """Dismiss one proposal: memory stays as it is; who dismissed it and when are kept."""
    review = _review_or_404(request, review_id)
    proposal = _proposal_or_404(review, proposal_id)
    try:
        dismiss_proposal(writer=_writer(request), proposal=proposal)
    except ConsoleError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Dismissed {proposal.public_id}; memory stays as it is.")
    return redirect(_review_url(review, proposal))


@login_required
@require_POST
def adopt_all_view(request: HttpRequest, review_id: str) -> HttpResponse:
    """Adopt every pending proposal in turn; one line says what was adopted and what was refused."""
    review = _review_or_404(request, review_id)
    try:
        results = adopt_all(writer=_writer(request), review=review)
    except ConsoleError as exc:
        messages.error(request, exc.message)
        return redirect(_review_url(review))
    adopted = [r for r in results if r.adopted]
    refused = [r for r in results if not r.adopted]
    if not results:
        messages.info(request, "No proposal was pending: nothing to adopt.")
    if adopted:
        messages.success(request, f"Adopted {len(adopted)} proposal{'s' if len(adopted) != 1 else ''}.")
    for result in refused:
        _say(request, result)
    return redirect(_review_url(review))
