"""Promotion: a lesson from a project store proposed for the practice store or a toolset store.

A person who may edit the project store proposes a note's text (edited as they like) for a
shared store, at a path, with a reason. The text must pass that store's checks (where and what,
the client-detail check included: no client detail reaches a store shared across clients) when
it is proposed, and again, through the whole pipeline, when it lands. The project's governance
template says who approves (``governance.promotion_rule``); the rule is kept on the promotion.
Once the approvals are complete, one of them a console admin's, the text lands as a new memory
in the target store through ``memory_create`` as door ``promotion``, written by that admin, with
its provenance (store, memory, version, promotion) on the version. A landing that is refused
(its path taken meanwhile, ``path_taken``, or a check) changes no store: the promotion is marked
failed with the reason and the error is raised.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from stores.console_checks.detectors.secrets import redact
from stores.console_checks.pipeline import decide_where_and_what
from stores.console_checks.reasons import Reason, refusal_error
from stores.console_checks.request import ChangeRequest, Writer
from stores.console_checks.who import person_may
from stores.errors import ConsoleError, InvalidRequest, NotFound, PathConflict, Refused
from stores.models import (
    Memory,
    Promotion,
    PromotionDecision,
    PromotionDecisionKind,
    PromotionStatus,
    Store,
    StoreKind,
)
from stores.operations import Operation

from .governance import CONSOLE_ADMINS, ESCALATION_CONTACTS, PromotionRule, promotion_rule
from .memories import lock_store, memory_create, path_conflict
from .refusals import recording_refusals

REASON_MAX = 2000
DOOR = "promotion"


def _is_admin(user) -> bool:
    return bool(user.is_active and user.is_superuser)


def promotion_targets(store: Store) -> list[Store]:
    """The shared stores a note of this project store may be promoted to: the practice store and
    the stores of the project's toolsets (archived ones left out)."""
    if store.kind != StoreKind.PROJECT or store.project_id is None:
        return []
    practice = list(Store.objects.filter(kind=StoreKind.PRACTICE, archived_at__isnull=True))
    toolsets = list(
        Store.objects.filter(
            kind=StoreKind.TOOLSET, toolset__projects=store.project_id, archived_at__isnull=True
        ).order_by("name")
    )
    return practice + toolsets


def may_propose(user, store: Store) -> bool:
    """True when this person may propose a note of ``store`` for promotion: they may edit the store."""
    return (
        store.kind == StoreKind.PROJECT
        and user.is_authenticated
        and person_may(user, store, Operation.UPDATE, "console")
    )


def promotion_rule_of(promotion: Promotion) -> PromotionRule:
    """The rule the promotion was opened under (kept on it, whatever the template says now)."""
    return PromotionRule.from_snapshot(promotion.rule or {})


def _is_contact(user, promotion: Promotion) -> bool:
    project_id = promotion.source_store.project_id
    return project_id is not None and user.escalation_projects.filter(pk=project_id).exists()


def approver_group(user, promotion: Promotion) -> str | None:
    """The group of the rule this person approves as (console admins first), or None if none."""
    if not user.is_active:
        return None
    rule = promotion_rule_of(promotion)
    if _is_admin(user):
        return CONSOLE_ADMINS
    if ESCALATION_CONTACTS in rule.approvers and _is_contact(user, promotion):
        return ESCALATION_CONTACTS
    return None


def may_decide(user, promotion: Promotion) -> bool:
    """True when this person may approve or refuse the promotion now."""
    return (
        promotion.status == PromotionStatus.PENDING
        and user.pk != promotion.proposed_by_id
        and approver_group(user, promotion) is not None
        and not promotion.decisions.filter(user=user, kind=PromotionDecisionKind.APPROVE).exists()
    )


def approvals_needed(promotion: Promotion) -> tuple[int, bool]:
    """How many approvals are still missing, and whether a console admin's is still missing."""
    rule = promotion_rule_of(promotion)
    approvals = [d for d in promotion.decisions.all() if d.kind == PromotionDecisionKind.APPROVE]
    missing = max(rule.approvals - len(approvals), 0)
    admin_missing = not any(d.as_console_admin for d in approvals)
    return missing, admin_missing


def _clean_reason(reason: Any, *, required: bool, what: str) -> str:
    """A person's reason, trimmed, with any secret pasted into it replaced by its type (it is kept)."""
    text = reason.strip() if isinstance(reason, str) else ""
    if required and not text:
        raise InvalidRequest(f"Give a reason for {what}; it is kept with the promotion.")
    return redact(text)[:REASON_MAX]


def _check_text(writer: Writer, target: Store, path: str, text: str) -> None:
    """Raise Refused if the target store's where and what checks refuse this path and text."""
    req = ChangeRequest(writer=writer, store=target, operation=Operation.CREATE, path=path, content=text)
    decision = decide_where_and_what(req)
    if not decision.allowed:
        raise Refused(decision, req)


def _path_taken(target: Store, path: str) -> PathConflict | None:
    conflict = path_conflict(target, path)
    if conflict is None:
        return None
    where = "holds that path already" if conflict.path == path else f"is in the way of {path}"
    return PathConflict(
        f"The path is taken: {conflict.path} ({conflict.public_id}) in the {target.kind} store '{target.name}' "
        f"{where}. Nothing was changed. Propose the note again at another path, or fold the lesson into "
        "that memory by editing it.",
        code=Reason.PATH_TAKEN,
        extra={"conflicting_path": conflict.path, "conflicting_memory_id": conflict.public_id},
    )


def promotion_propose(
    *, user, store: Store, memory_id: str, target_store_id: str, path: Any, text: Any, reason: Any = ""
) -> Promotion:
    """Open a promotion of a project memory's text for a shared store; nothing lands until approved.

    Refused (nothing opened) when the person may not edit the project store, the target is not
    the practice store or one of the project's toolset stores, the project's governance template
    has a malformed block, the path is taken in the target store (``path_taken``), or the text or
    path would be refused there (the refusal names the passage).
    """
    if not may_propose(user, store):
        raise refusal_error(
            f"Not permitted: propose a note of the {store.kind} store '{store.name}' for promotion. Only people "
            "who may edit a project store (its escalation contacts and console admins) propose its notes.",
            code=Reason.PERSON_NOT_PERMITTED,
        )
    memory = Memory.objects.filter(store=store, public_id=memory_id, deleted_at__isnull=True).first()
    if memory is None:
        raise NotFound(f"No memory {memory_id} in store {store.public_id}.")
    target = next((s for s in promotion_targets(store) if s.public_id == target_store_id), None)
    if target is None:
        raise InvalidRequest(
            "Choose the practice store or a toolset store of the project's toolsets as the target.",
            code=Reason.INVALID_REQUEST,
        )
    if not isinstance(path, str) or not path.strip():
        raise InvalidRequest(
            "Give the path the note takes in the target store, such as /conventions/naming.md."
        )
    if not isinstance(text, str):
        raise InvalidRequest("The text to promote must be text.")
    path = path.strip()
    reason = _clean_reason(reason, required=False, what="the promotion")
    rule = promotion_rule(store.project.governance_template)
    _check_text(Writer(user=user, door=DOOR), target, path, text)
    taken = _path_taken(target, path)
    if taken is not None:
        raise taken
    return Promotion.objects.create(
        source_store=store,
        source_memory=memory,
        source_version_id=memory.head_version_id,
        source_path=memory.path,
        proposed_by=user,
        target_store=target,
        path=path,
        text=text,
        reason=reason,
        rule=rule.as_snapshot(),
    )


def _locked(promotion_id: str) -> Promotion:
    promotion = (
        Promotion.objects.select_for_update()
        .select_related("source_store", "target_store", "source_memory")
        .filter(public_id=promotion_id)
        .first()
    )
    if promotion is None:
        raise NotFound(f"No promotion {promotion_id}.")
    return promotion


def _require_pending(promotion: Promotion) -> None:
    if promotion.status != PromotionStatus.PENDING:
        raise InvalidRequest(
            f"Promotion {promotion.public_id} was {promotion.get_status_display().lower()} already "
            f"on {promotion.decided_at:%d %b %Y, %H:%M}; it takes no more decisions.",
            code=Reason.PROMOTION_DECIDED,
        )


def _require_decider(user, promotion: Promotion, asked: str) -> str:
    if user.pk == promotion.proposed_by_id:
        raise refusal_error(
            f"Not permitted: {asked} your own promotion. The proposer never counts as an approver; "
            f"another person the rule names decides ({promotion_rule_of(promotion).summary})",
            code=Reason.PERSON_NOT_PERMITTED,
        )
    group = approver_group(user, promotion)
    if group is None:
        raise refusal_error(
            f"Not permitted: {asked} promotion {promotion.public_id}. The rule it was opened under: "
            f"{promotion_rule_of(promotion).summary}",
            code=Reason.PERSON_NOT_PERMITTED,
        )
    return group


def _provenance(promotion: Promotion) -> dict[str, str]:
    return {
        "type": "promotion",
        "promotion_id": promotion.public_id,
        "store_id": promotion.source_store.public_id,
        "memory_id": promotion.source_memory.public_id,
        "version_id": promotion.source_version_id,
    }


def _land(promotion: Promotion, admin) -> Memory:
    """Write the promoted text as a new memory of the target store, through every check, as the admin."""
    target = lock_store(promotion.target_store)
    taken = _path_taken(target, promotion.path)
    if taken is not None:
        raise taken
    return memory_create(
        writer=Writer(user=admin, door=DOOR),
        store=target,
        path=promotion.path,
        content=promotion.text,
        # The version's reason column is short: the provenance rides in its own column.
        reason=f"promoted from {promotion.source_memory.public_id} ({promotion.public_id})",
        provenance=_provenance(promotion),
    )


def promotion_approve(*, user, promotion_id: str, reason: Any) -> Promotion:
    """Record this person's approval; when the rule's approvals are complete, land the text.

    Only people the rule names approve, once each, never the proposer. The approvals are complete
    when their count reaches the rule's and one of them is a console admin's. A landing refused
    (its path taken since, ``path_taken``, or a check) leaves every store as it was: the promotion
    is marked failed with the reason code and message, and the error is raised.
    """
    why = _clean_reason(reason, required=True, what="the approval")
    failed: list[ConsoleError] = []

    def work() -> Promotion:
        promotion = _locked(promotion_id)
        _require_pending(promotion)
        group = _require_decider(user, promotion, "approve")
        if promotion.decisions.filter(user=user, kind=PromotionDecisionKind.APPROVE).exists():
            raise InvalidRequest(
                f"You approved {promotion.public_id} already; it waits for the other approvals.",
                code=Reason.ALREADY_APPROVED,
            )
        PromotionDecision.objects.create(
            promotion=promotion,
            kind=PromotionDecisionKind.APPROVE,
            user=user,
            as_console_admin=group == CONSOLE_ADMINS,
            reason=why,
        )
        missing, admin_missing = approvals_needed(promotion)
        if missing or admin_missing:
            return promotion
        admin = user if _is_admin(user) else _last_admin(promotion)
        try:
            landed = _land(promotion, admin)
        except ConsoleError as error:
            failed.append(error)
            raise
        promotion.status = PromotionStatus.APPROVED
        promotion.decided_at = timezone.now()
        promotion.landed_memory = landed
        promotion.landed_version_id = landed.head_version_id
        promotion.save(update_fields=["status", "decided_at", "landed_memory", "landed_version_id"])
        return promotion

    try:
        return recording_refusals(work)
    except ConsoleError as error:
        if failed:
            _mark_failed(promotion_id, user, why, error)
        raise


def _last_admin(promotion: Promotion):
    decision = (
        promotion.decisions.filter(kind=PromotionDecisionKind.APPROVE, as_console_admin=True)
        .select_related("user")
        .order_by("-created_at", "-id")
        .first()
    )
    return decision.user


def _mark_failed(promotion_id: str, user, why: str, error: ConsoleError) -> None:
    """After a landing rolled back: the promotion failed, with the approval that tried and the reason."""
    with transaction.atomic():
        promotion = _locked(promotion_id)
        if promotion.status != PromotionStatus.PENDING:
            return
        group = approver_group(user, promotion)
        PromotionDecision.objects.get_or_create(
            promotion=promotion,
            kind=PromotionDecisionKind.APPROVE,
            user=user,
            defaults={"as_console_admin": group == CONSOLE_ADMINS, "reason": why},
        )
        promotion.status = PromotionStatus.FAILED
        promotion.decided_at = timezone.now()
        promotion.failure_code = str(error.code or error.error_type)[:40]
        promotion.failure_message = error.message
        promotion.save(update_fields=["status", "decided_at", "failure_code", "failure_message"])


def promotion_refuse(*, user, promotion_id: str, reason: Any) -> Promotion:
    """Refuse a pending promotion (a person the rule names, not the proposer), with a reason; no store changes."""
    why = _clean_reason(reason, required=True, what="the refusal")
    with transaction.atomic():
        promotion = _locked(promotion_id)
        _require_pending(promotion)
        group = _require_decider(user, promotion, "refuse")
        PromotionDecision.objects.create(
            promotion=promotion,
            kind=PromotionDecisionKind.REFUSE,
            user=user,
            as_console_admin=group == CONSOLE_ADMINS,
            reason=why,
        )
        promotion.status = PromotionStatus.REFUSED
        promotion.decided_at = timezone.now()
        promotion.save(update_fields=["status", "decided_at"])
        return promotion
