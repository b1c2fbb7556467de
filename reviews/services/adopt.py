"""A person's decision on a proposal: adopt it (through the memory services, door ``review``),
dismiss it, or adopt all of a review's pending proposals in turn.

Adopting writes what the proposal says, attributed to the person, as versions:

- ``merge_set_aside``: the merged text becomes the memory's new version and the set-aside is used
  (the set-aside merge service);
- ``duplicates``, and ``rewrite`` (a model's rewrite, or its merge of several notes): the first
  memory gets the proposed text, every other one is deleted, all or nothing;
- ``stale`` and ``decision``: the note is deleted, with a reason that cites the evidence (what
  the registry removed and when; the decision or template passage it is close to).

Before anything is written, under the store's lock, the proposal's base is compared with what is
saved: a memory written, deleted or renamed since the review, or a set-aside used or dismissed
since, refuses the adopt with ``stale_base`` and nothing changes. Any refusal (that one, or the
checks refusing the text now) is kept on the proposal, whose status becomes ``refused``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from stores.console_checks.reasons import Reason
from stores.console_checks.request import Writer
from stores.errors import Conflict, ConsoleError, PermissionDenied, PreconditionFailed
from stores.models import Memory, SetAside, SetAsideStatus
from stores.services.memories import lock_store, memory_delete, memory_update
from stores.services.merging import set_aside_merge_save
from stores.services.refusals import recording_refusals

from ..access import require_may_review
from ..models import ProposalKind, ProposalStatus, Review, ReviewProposal

# A version's reason is at most this long (simple-history's change-reason column); the proposal
# itself, named in it, keeps the whole evidence.
REASON_CHARS = 100


@dataclass(frozen=True)
class AdoptResult:
    """What became of one adopt: adopted (with the versions written) or refused (code and message)."""

    proposal: ReviewProposal
    adopted: bool
    code: str = ""
    message: str = ""
    version_ids: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.proposal.public_id, "kind": self.proposal.kind, "adopted": self.adopted,
            "status": self.proposal.status, "code": self.code, "message": self.message,
            "version_ids": self.version_ids,
        }


def _person(writer: Writer, proposal_or_review, asked: str) -> Writer:
    """The writer as a person at door ``review``; agents and people without the right are refused."""
    store = proposal_or_review.store if isinstance(proposal_or_review, Review) else proposal_or_review.review.store
    if not writer.is_person:
        raise PermissionDenied("Only people adopt or dismiss a review's proposals, in the console.",
                               code=Reason.PEOPLE_ONLY)
    require_may_review(writer.user, store, asked)
    return dataclasses.replace(writer, door="review", run=None, agent=None)


def _require_pending(proposal: ReviewProposal) -> None:
    if proposal.status != ProposalStatus.PENDING:
        who = proposal.decided_by.get_username() if proposal.decided_by else "the console"
        raise Conflict(
            f"This proposal was already {proposal.get_status_display().lower()} by {who}"
            + (f" ({proposal.refusal_code})" if proposal.refusal_code else "") + "; review the store again for fresh ones.",
            code=Reason.PROPOSAL_DECIDED,
        )


def _check_base(proposal: ReviewProposal) -> None:
    """Raise stale_base unless every memory and set-aside is as the review saw it (store locked)."""
    store = proposal.review.store
    for memory_id, seen in (proposal.base.get("memories") or {}).items():
        memory = Memory.objects.filter(store=store, public_id=memory_id).first()
        label = memory.path if memory is not None and memory.path else memory_id
        if memory is None or memory.deleted_at is not None:
            why = f"{label} was deleted after the review"
        elif memory.head_version_id != seen.get("version_id") or memory.content_sha256 != seen.get("sha256"):
            why = (f"{label} was saved again after the review (now version {memory.head_version_id}; "
                   f"the review read {seen.get('version_id')})")
        else:
            continue
        raise PreconditionFailed(
            f"{why}, so this proposal no longer fits what is saved and nothing was changed. "
            "Review the store again for a proposal made on the saved copy.",
            code=Reason.STALE_BASE,
        )
    set_aside_id = proposal.base.get("set_aside_id")
    if set_aside_id:
        set_aside = SetAside.objects.filter(store=store, public_id=set_aside_id).first()
        if set_aside is None or set_aside.status != SetAsideStatus.OPEN:
            state = "gone" if set_aside is None else set_aside.get_status_display().lower()
            raise PreconditionFailed(
                f"The set-aside text {set_aside_id} was {state} after the review, so nothing was changed.",
                code=Reason.STALE_BASE,
            )


def _reason(proposal: ReviewProposal, what: str) -> str:
    """The version's reason: the proposal's id and what it did, citing its evidence briefly."""
    why = f"review {proposal.public_id}: {what}"
    return why if len(why) <= REASON_CHARS else why[: REASON_CHARS - 1] + "…"


def _evidence_cited(proposal: ReviewProposal) -> str:
    """What a stale or decision proposal's evidence says, in a few words."""
    evidence = proposal.evidence or {}
    if proposal.kind == ProposalKind.STALE:
        removed = evidence.get("removed") or []
        names = ", ".join(r.get("name", "") for r in removed)
        dates = sorted({str(r.get("removed_at", ""))[:10] for r in removed})
        return f"names {names}, removed from the registry {', '.join(dates)}"
    source = evidence.get("source") or {}
    return f"close to {source.get('title', 'a standing decision')}, which stands"


def _fold(writer: Writer, proposal: ReviewProposal) -> list[str]:
    """The first memory gets the proposed text; the others are deleted (duplicates, a model's merge)."""
    store = proposal.review.store
    kept_id, *others = proposal.memory_ids
    written = []
    memory, changed = memory_update(
        writer=writer, store=store, memory_id=kept_id, content=proposal.proposed_text,
        reason=_reason(proposal, "folded text" if others else "rewritten text"),
    )
    if changed:
        written.append(memory.head_version_id)
    kept_path = memory.path
    for memory_id in others:
        gone = memory_delete(writer=writer, store=store, memory_id=memory_id,
                             reason=_reason(proposal, f"folded into {kept_path}"))
        written.append(gone.head_version_id)
    return written


def _delete(writer: Writer, proposal: ReviewProposal) -> list[str]:
    """Delete the note (stale, decision), the reason citing the evidence."""
    gone = memory_delete(writer=writer, store=proposal.review.store, memory_id=proposal.memory_ids[0],
                         reason=_reason(proposal, _evidence_cited(proposal)))
    return [gone.head_version_id]


def _merge_set_aside(writer: Writer, proposal: ReviewProposal) -> list[str]:
    seen = proposal.base["memories"][proposal.memory_ids[0]]
    set_aside = set_aside_merge_save(
        writer=writer, store=proposal.review.store, set_aside_id=proposal.base["set_aside_id"],
        text=proposal.proposed_text, saved_sha256=seen["sha256"],
        reason=f"review {proposal.public_id}",  # the service prefixes what it did; 100 characters in all
    )
    return [set_aside.resolved_version_id]


_ADOPT = {
    ProposalKind.MERGE_SET_ASIDE: _merge_set_aside,
    ProposalKind.DUPLICATES: _fold,
    ProposalKind.REWRITE: _fold,
    ProposalKind.STALE: _delete,
    ProposalKind.DECISION: _delete,
}


def _decide(proposal: ReviewProposal, writer: Writer, status: str, **fields: Any) -> None:
    proposal.status = status
    proposal.decided_by = writer.user
    proposal.decided_at = timezone.now()
    for name, value in fields.items():
        setattr(proposal, name, value)
    proposal.save(update_fields=["status", "decided_by", "decided_at", *fields])


def _adopt_one(writer: Writer, proposal: ReviewProposal) -> AdoptResult:
    def work() -> list[str]:
        lock_store(proposal.review.store)
        locked = ReviewProposal.objects.select_for_update().get(pk=proposal.pk)
        _require_pending(locked)
        _check_base(locked)
        version_ids = _ADOPT[locked.kind](writer, locked)
        _decide(locked, writer, ProposalStatus.ADOPTED, version_ids=version_ids)
        return version_ids

    try:
        version_ids = recording_refusals(work)
    except ConsoleError as error:
        if error.code == Reason.PROPOSAL_DECIDED:
            raise
        # Everything the adopt did rolled back; the proposal keeps why, and stays as it was otherwise.
        with transaction.atomic():
            locked = ReviewProposal.objects.select_for_update().get(pk=proposal.pk)
            _decide(locked, writer, ProposalStatus.REFUSED, refusal_code=error.code or Reason.ERROR,
                    refusal_message=error.message)
        proposal.refresh_from_db()
        return AdoptResult(proposal, adopted=False, code=proposal.refusal_code, message=error.message)
    proposal.refresh_from_db()
    return AdoptResult(proposal, adopted=True, version_ids=version_ids)


def adopt_proposal(*, writer: Writer, proposal: ReviewProposal) -> AdoptResult:
    """Adopt one pending proposal as ``writer`` (a person who may edit the store).

    Returns the result: adopted, with the versions written, or refused (``stale_base``, a check's
    code), which leaves memory as it was and is kept on the proposal. Raises PermissionDenied for
    an agent or a person without the right, and Conflict (``proposal_decided``) for a proposal
    that is no longer pending; neither changes anything.
    """
    person = _person(writer, proposal, "adopt a review's proposal here")
    return _adopt_one(person, proposal)


def dismiss_proposal(*, writer: Writer, proposal: ReviewProposal) -> ReviewProposal:
    """Dismiss a pending proposal: memory stays as it is; who dismissed it and when are kept."""
    person = _person(writer, proposal, "dismiss a review's proposal here")
    with transaction.atomic():
        locked = ReviewProposal.objects.select_for_update().get(pk=proposal.pk)
        _require_pending(locked)
        _decide(locked, person, ProposalStatus.DISMISSED)
    proposal.refresh_from_db()
    return proposal


def adopt_all(*, writer: Writer, review: Review) -> list[AdoptResult]:
    """Adopt each pending proposal of ``review`` in turn (list order); one result per proposal.

    An earlier adopt may change a memory a later proposal was based on: that one is refused with
    ``stale_base``, as any proposal made stale by a write.
    """
    person = _person(writer, review, "adopt a review's proposals here")
    results = []
    for proposal in review.proposals.filter(status=ProposalStatus.PENDING).order_by("position", "id"):
        try:
            results.append(_adopt_one(person, proposal))
        except Conflict as decided:  # decided by someone else meanwhile: reported, the rest go on
            proposal.refresh_from_db()
            results.append(AdoptResult(proposal, adopted=False, code=decided.code or "", message=decided.message))
    return results
